import glob, re, statistics, sys, collections
out = sys.argv[1]
rows = collections.defaultdict(list)
for f in sorted(glob.glob(f"{out}/*.timev")):
    corpus, v, rep = f.split("/")[-1].rsplit(".", 1)[0].rsplit(".", 2)
    t = open(f).read()
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1))
    sys_ = float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
    w = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", t)
    wall = int(w.group(1) or 0) * 3600 + int(w.group(2)) * 60 + float(w.group(3))
    rows[(corpus, v)].append((int(rep), user + sys_, wall))
print("| corpus | binary | runs | CPU s (user+sys), per run | wall s, per run | median CPU | median wall |")
print("|---|---|---|---|---|---|---|")
med = {}
for (corpus, v), r in sorted(rows.items()):
    r.sort()
    cpu = [x[1] for x in r]; wall = [x[2] for x in r]
    med[(corpus, v)] = (statistics.median(cpu), statistics.median(wall))
    print(f"| {corpus} | {v} | {len(r)} | {' '.join(f'{c:.2f}' for c in cpu)} | {' '.join(f'{w:.2f}' for w in wall)} | {med[(corpus, v)][0]:.3f} | {med[(corpus, v)][1]:.3f} |")
print()
for corpus in sorted({c for c, _ in rows}):
    m, f = med[(corpus, "main")], med[(corpus, "fast")]
    print(f"- {corpus}: CPU main/branch = {m[0] / f[0]:.2f}x, wall main/branch = {m[1] / f[1]:.2f}x")
