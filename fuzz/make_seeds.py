#!/usr/bin/env python3
"""Write the seed corpora of the fuzz targets (fuzz/corpus/TARGET/): a few small inputs each,
cut from the shipped corpora (corpora/clough, corpora/bible, corpora/web-fixtures) and from the
shapes the tests use (Reuters-21578 SGML, WARC records, JSON lines).

Each seed starts with the bytes its target reads as settings (see the target's source), then the
data. Run from anywhere: python3 fuzz/make_seeds.py
"""
import gzip, os, io, json, zlib

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
S='fuzz/corpus'
def w(target, name, data):
    os.makedirs(f'{S}/{target}', exist_ok=True)
    open(f'{S}/{target}/{name}','wb').write(data)
def rd(p, n=None):
    b=open(p,'rb').read()
    return b if n is None else b[:n]
def cut_text(b, n):
    b=b[:n]
    i=b.rfind(b'.')
    return b[:i+1] if i>0 else b
orig=rd('corpora/clough/orig_taskb.txt')
g0=rd('corpora/clough/g0pA_taskb.txt')
kjv=cut_text(rd('corpora/bible/kjv-1mb.txt'),1500)
wbt=cut_text(rd('corpora/bible/wbt-1mb.txt'),1500)
trec=rd('corpora/bible/sample.trec')
# three short TREC docs
docs=trec.split(b'</DOC>')
trec3=b''.join(d[:700]+b'\n</TEXT>\n</DOC>' for d in docs[:3])+b'\n'
reuters=(b'<!DOCTYPE lewis SYSTEM "lewis.dtd">\n<REUTERS TOPICS="YES" NEWID="1"><DATE>26-FEB-1987</DATE><TEXT>&#2;\n<TITLE>BAHIA COCOA REVIEW</TITLE>\n<BODY>Showers continued throughout the week in the Bahia cocoa zone. AT&T rose. Smith&#39;s crop &amp; the &lt;main&gt; harvest.\n Reuter\n&#3;</BODY></TEXT>\n</REUTERS>\n'
         b'<REUTERS OLDID="9"><TEXT><BODY>No id here.</BODY></TEXT></REUTERS>\n'
         b'<REUTERS NEWID=3 LEWISSPLIT="TRAIN"><TEXT TYPE="BRIEF"><TITLE>PAGERANK</TITLE><BODY>Stocks fell. <P> Bonds rose.</BODY></TEXT></REUTERS>\n')
about=rd('corpora/web-fixtures/python-3.11/about.html')
bugs=rd('corpora/web-fixtures/python-3.11/bugs.html')
def trim_html(b, n):
    # keep head start and a slice of body
    i=b.find(b'<body')
    body=b[i:i+n] if i>=0 else b[:n]
    return b[:300]+b'</head>'+body+b'</body></html>'
small_html=(b'<!DOCTYPE html><html><head><meta charset="windows-1251"><title>t</title><style>p{}</style></head>'
            b'<body><nav><a href="/">Home</a> <a>News</a></nav><div id="story"><h1>Council</h1><p>The council met on Monday.</p>'
            b'<p>It approved the \xe1\xfe\xe4\xe6\xe5\xf2 budget.<br>Next year.</p><script>x()</script><div hidden>no</div>'
            b'<ul><li>One item.</li><li>Two items.</li></ul><table><tr><td>A cell.</td></tr></table></div><footer>&copy; 2024 &amp; more</footer></body></html>')
def warc_record(uri, html, ctype, extra=b'', declared=None):
    http=b'HTTP/1.1 200 OK\r\nContent-Type: '+ctype+b'\r\n'+extra+b'Content-Length: '+str(len(html)).encode()+b'\r\n\r\n'+html
    n=len(http) if declared is None else declared
    r=(b'WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: '+uri+b'\r\nWARC-Record-ID: <urn:uuid:1>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: '+str(n).encode()+b'\r\n\r\n')
    return r+http+b'\r\n\r\n'
info=b'WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 4\r\n\r\ninfo\r\n\r\n'
page=small_html
warc1=info+warc_record(b'https://example.org/a.html', page, b'text/html; charset=windows-1251')+warc_record(b'https://example.org/x.png', b'PNG', b'image/png')
gzpage=gzip.compress(page, mtime=0)
chunked=b'%x\r\n' % len(gzpage[:100]) + gzpage[:100] + b'\r\n' + b'%x\r\n' % len(gzpage[100:]) + gzpage[100:] + b'\r\n0\r\n\r\n'
warc2=warc_record(b'https://example.org/b.html', chunked, b'text/html', extra=b'Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n')+warc_record(b'https://example.org/c.html', page, b'text/html', declared=len(page)+200)+warc_record(b'https://example.org/d.html', trim_html(about,1500), b'text/html')
warc3=warc_record(b'https://example.org/e.html', zlib.compress(page), b'text/html', extra=b'Content-Encoding: deflate\r\n')+warc1[:-40]
jl=(json.dumps({"id":"a1","text":orig[:600].decode()})+'\n'+json.dumps({"id":7,"text":"Short one. Two sentences."})+'\n\n{"id": "", "text": "x"}\n{"text": 3}\nnot json\n[1,2]\n'+json.dumps({"id":"u","text":"caf\u00e9 \u2019quoted\u2019 \ud83d\ude00."})+'\n').encode()
jl2=(json.dumps({"n":"b1","body":kjv[:500].decode()})+'\n'+json.dumps({"n":2.5e3,"body":"x"})+'\n').encode()
# decode
w('decode','text',b'\x00\x00'+orig[:1500])
w('decode','text-gzip',b'\x01\x00'+g0)
w('decode','utf16le',b'\x00\x00'+b'\xff\xfe'+g0[:400].decode().encode('utf-16-le'))
w('decode','utf16be',b'\x00\x00'+b'\xfe\xff'+g0[:400].decode().encode('utf-16-be'))
w('decode','cp1252',b'\x00\x00'+'Caf\u00e9 au lait \u201cquoted\u201d \u2014 na\u00efve.\nSecond line.'.encode('cp1252'))
w('decode','utf8bom',b'\x00\x00'+b'\xef\xbb\xbf'+'Na\u00efve caf\u00e9. \u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440. \u65e5\u672c\u8a9e\u3002'.encode())
w('decode','binary',b'\x00\x00'+bytes(range(0,64))*4)
w('decode','gzip-trec',b'\x00\x00'+gzip.compress(trec3, mtime=0))
w('decode','trec',b'\x00\x00'+trec3[:1200])
w('decode','jsonl',b'\x00\x00'+jl[:800])
w('decode','html',b'\x00\x00'+small_html)
w('decode','warc',b'\x00\x00'+warc1)
w('decode','limit',b'\x00\x05'+kjv)
# trec
w('trec_sgml','sample',b'\x00\x00'+trec3)
w('trec_sgml','headlines',b'\x00\x01'+b'<DOC>\n<DOCNO> AP900101-0001 </DOCNO>\n<HEAD>Rates Cut</HEAD>\n<TEXT>\nAT&T rose. <P> Shares fell &amp; bonds rose &#39;a lot&#x27;.\n</TEXT>\n</DOC>\n<DOC><DOCNO>X</DOCNO><HL>Two</HL><TEXT>Unclosed <F P=105>tag. <P>\n')
w('trec_sgml','gzip',b'\x01\x00'+trec3[:900])
w('trec_sgml','noid',b'\x00\x00'+b'<!DOCTYPE x>\n<doc>\n<text>No id.</text></doc>\n<DOC><DOCNO></DOCNO><TEXT>Empty id.</TEXT></DOC><DOC><DOCNO>&amp;1</DOCNO><TEXT>x</TEXT>')
# reuters
w('sgml_reuters','reuters',b'\x00'+reuters)
w('sgml_reuters','custom',b'\x01'+b'<D id="d1"><H>Head line</H><P>First para. Second.</P><T>Tail &amp; end.</T></D>\n<D ID=d2><P>Other.<P>Unclosed</D><D><P>no id</P></D>')
w('sgml_reuters','nested',b'\x02'+b'<A><B>id1</B><A>inner text.</A> more</A><A x=1><B> id2 </B>Text<B>again</B></A>')
# jsonl
w('jsonl','docs',b'\x00'+jl)
w('jsonl','fields',b'\x01'+jl2)
# html
w('html','small',b'\x00\x00\x00'+small_html)
w('html','about',b'\x01\x02\x01'+trim_html(about,3000))
w('html','bugs',b'\x02\x00\x00'+trim_html(bugs,3000))
w('html','nested',b'\x00\x01\x00'+b'<html><body>'+b'<div><b>'*300+b'deep text.'+b'</b></div>'*300+b'<p>After.</p></body></html>')
w('html','xml',b'\x00\x00\x01'+b'<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>One.</p><template>no</template><p style="display:none">hidden</p><svg><text>no</text></svg><pre>a\n  b</pre></body></html>')
# warc
w('warc','records',b'\x00\x00'+warc1)
w('warc','coding',b'\x00\x40'+warc2)
w('warc','damaged',b'\x01\x08'+warc3)
# profile
w('profile','clough',b'\x22\x02\x00\x00'+orig[:2000])
w('profile','bible',b'\x22\x01\x01\xe3'+kjv[:1200])
w('profile','unicode',b'\x09\x02\x00\x06'+'Mr. Smith went to\nWashington on Jan. 5. He met Gov. Cuomo.\n\nMARKETS\n\nStocks fell. \u201cIs it over?\u201d she asked. The U.S. Treasury; bonds: rose. organization.Coalition grew 3.5 pct. \u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440. \u65e5\u672c\u8a9e\u306e\u6587\u3002\u3082\u3046\u4e00\u3064\u3002 Don\u2019t stop\u2029New para \u00e9t\u00e9 na\u00efve. \u0130stanbul.'.encode())
# compare
w('compare','clough',b'\x00'+orig[:1500]+b'\xff'+g0)
w('compare','bible',b'\x03'+kjv+b'\xff'+wbt)
w('compare','same',b'\x31'+kjv[:600]+b'\xff'+kjv[:600])
# robust: 14 config bytes + rule byte
cfg=bytes([0,4,4,0,0,0,0,0,10,1,0,0,0,0,2])
w('robust','bible',cfg+kjv[:800]+b'\xff'+wbt[:800]+b'\xff'+kjv[400:1200]+b'\xff'+orig[:500])
w('robust','clough',bytes([1,2,1,1,1,1,1,1,3,0,1,1,1,1,0])+orig[:1200]+b'\xff'+g0+b'\xff'+g0)
w('robust','figures',bytes([2,0,4,2,2,0,0,0,0,2,0,0,1,1,1])+b'Profit rose 12 pct to 3.5 mln dlrs in 1986. Sales were 40 mln. The company said on Monday.\xffProfit rose 15 pct to 4.1 mln dlrs in 1987. Sales were 42 mln. The company said on Monday.\xffThe company said on Monday. Profit rose 12 pct to 3.5 mln dlrs in 1986.')
