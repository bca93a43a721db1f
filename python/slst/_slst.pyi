"""Type stubs of the Rust extension (see slst/__init__.py for the Python API)."""

from typing import Any, Iterable, Iterator, List, Optional, Tuple, Union, final

__version__: str
ID_COLUMN: str
TEXT_COLUMN: str
__all__ = [
    "Block",
    "Comparison",
    "Dedup",
    "Detector",
    "Dropped",
    "ID_COLUMN",
    "Pair",
    "Pairs",
    "Passage",
    "Profile",
    "Sentence",
    "Sketch",
    "SlstError",
    "TEXT_COLUMN",
    "__version__",
    "decide",
    "decode",
    "dedup",
    "methods",
    "pair_columns_ddl",
    "plan_walk",
    "prefix_len",
    "profile",
    "rare_bounds",
    "RARE_KEYS",
]

class SlstError(ValueError):
    """A setting unknown or out of range, or an unreadable input: the message the ``slst``
    command prints."""

def methods() -> List[str]: ...
def decode(data: bytes) -> str: ...
def profile(text: str, params: Optional[dict[str, Any]] = None) -> Profile: ...
def plan_walk(cost: List[int], least: int) -> Tuple[List[bool], int]: ...
def prefix_len(size: int, tau: float) -> int: ...
def rare_bounds(
    units: int, slots: List[int], max_df: int, rare_df: int, rare_budget: int
) -> List[int]: ...
# The rarest shared keys a unit always looks up under rare_df (slst batch --rare-df).
RARE_KEYS: int

def pair_columns_ddl(passages: bool = False) -> str: ...

@final
class Block:
    """Sentences common to both documents (SL+ST)."""

    a: Optional[slice]
    b: Optional[slice]
    a_bytes: Tuple[int, int]
    b_bytes: Tuple[int, int]
    a_start: int
    b_start: int
    length: int
    min_term_similarity: Optional[float]

@final
class Passage:
    """Reused text grown word by word from the blocks."""

    a: slice
    b: slice
    a_bytes: Tuple[int, int]
    b_bytes: Tuple[int, int]
    similarity: float
    shared_words: int

@final
class Comparison:
    method: str
    resemblance: float
    containment_a: Optional[float]
    containment_b: Optional[float]
    duplicate: bool
    rule: str
    note: Optional[str]
    template: Optional[str]
    decided_by: str
    condition: str
    blocks: List[Block]
    passages: Optional[List[Passage]]
    json: str
    def to_json(self) -> str: ...

@final
class Sketch:
    id: str
    detector: Detector
    def to_bytes(self) -> bytes: ...

@final
class Pair:
    a: str
    b: str
    resemblance: float
    containment_a: Optional[float]
    containment_b: Optional[float]
    duplicate: bool
    template: Optional[str]
    decided_by: str
    condition: str
    passages: Optional[List[Tuple[Tuple[int, int], Tuple[int, int]]]]
    json: str
    def to_json(self) -> str: ...

@final
class Pairs(Iterator[Pair]):
    clusters: List[List[str]]
    groups: List[List[str]]
    group_records: List[str]
    documents: int
    compared: int
    def __iter__(self) -> Pairs: ...
    def __next__(self) -> Pair: ...
    def __len__(self) -> int: ...
    def to_arrow(self) -> Any: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

@final
class Dropped:
    dropped: str
    kept: str
    resemblance: float
    containment_dropped: Optional[float]
    containment_kept: Optional[float]
    method: str
    rule: str
    json: str
    def to_json(self) -> str: ...

@final
class Dedup:
    kept: List[str]
    kept_indices: List[int]
    dropped: List[Dropped]
    documents: int
    def to_arrow(self) -> Any: ...
    def kept_table(self) -> Any: ...

def dedup(
    detector: Detector,
    docs: Union[Iterable[Tuple[Any, Union[str, bytes]]], Any],
    keep: str = "first",
    rule: str = "duplicates",
    containment: float = 0.8,
    max_df: int = 1000,
    threads: Optional[int] = None,
    id_column: str = ...,
    text_column: str = ...,
) -> Dedup: ...
def decide(
    n: int, pairs: List[Tuple[int, int]], order: List[int]
) -> Tuple[List[bool], List[Tuple[int, int, int]]]: ...

@final
class Sentence:
    span: slice
    bytes: Tuple[int, int]
    length: int
    symbol: str
    leading: List[str]

@final
class Profile:
    length_string: str
    sentences: List[Sentence]
    skipped_empty: int
    dropped_long: int
    json: str
    def to_json(self) -> str: ...

@final
class Detector:
    method: str
    mode: str
    rule: str
    settings: List[str]
    witness_tolerance: Optional[int]
    rare_keys: Optional[Tuple[int, int]]
    def __new__(
        cls, method: str = "slst", mode: str = "robust", params: Optional[dict[str, Any]] = None
    ) -> Detector: ...
    def sketch(self, text: str, id: str = "doc") -> Sketch: ...
    def sketch_from_bytes(self, data: bytes, id: str = "doc") -> Sketch: ...
    def keys(self, sketch: Sketch, duplicates: bool = True) -> Optional[List[int]]: ...
    def witness_keys(
        self, sketch: Sketch, seeds: bool = False
    ) -> Optional[Tuple[List[Tuple[int, int, int, int]], int]]: ...
    def word_keys(self, sketch: Sketch) -> Optional[List[int]]: ...
    def vocabulary(self, sketch: Sketch) -> Optional[List[int]]: ...
    @property
    def word_join(self) -> Optional[Tuple[float, int]]: ...
    def may_keep_matched(
        self, items: List[Tuple[int, int, int]], rule: str = "duplicates", containment: float = 0.8
    ) -> Optional[List[bool]]: ...
    def fewest_matched(
        self, sizes: List[int], rule: str = "duplicates", containment: float = 0.8
    ) -> Optional[List[Optional[int]]]: ...
    def pair_check_values(self, sketch: Sketch) -> Optional[List[int]]: ...
    def may_keep_pairs(
        self,
        items: List[Tuple[int, List[int], int, List[int]]],
        rule: str = "duplicates",
        containment: float = 0.8,
    ) -> Optional[List[bool]]: ...
    def verify_many(
        self,
        items: List[Tuple[str, bytes, str, bytes]],
        rule: str = "duplicates",
        containment: float = 0.8,
        stopwords: Optional[List[Tuple[str, str]]] = None,
    ) -> List[Tuple[int, str]]: ...
    def verify_passages(
        self,
        items: List[Tuple[str, bytes, str, str, bytes, str]],
        min_shared_words: int,
        rule: str = "duplicates",
        containment: float = 0.8,
        stopwords: Optional[List[Tuple[str, str]]] = None,
    ) -> List[Tuple[int, str]]: ...
    def stopwords_of(self, text: str) -> Optional[str]: ...
    def check_min_shared_words(self, min_shared_words: int) -> None: ...
    def verify(self, a: Sketch, b: Sketch, passages: bool = True) -> Comparison: ...
    def compare(
        self, a: str, b: str, passages: bool = True, a_id: str = "a", b_id: str = "b"
    ) -> Comparison: ...
    def pairs(
        self,
        docs: Union[Iterable[Tuple[Any, Union[str, bytes]]], Any],
        rule: str = "duplicates",
        containment: float = 0.8,
        max_df: int = 1000,
        threads: Optional[int] = None,
        group_at: float = 0.9,
        id_column: str = ...,
        text_column: str = ...,
        min_shared_words: Optional[int] = None,
    ) -> Pairs: ...
