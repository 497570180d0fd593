"""What the client's modules share: ids of objects, default titles, the paged list and the types methods take."""

from __future__ import annotations

import os
from typing import Any, Callable, Generic, Iterator, List, Optional, Tuple, TypeVar, Union, overload

from .errors import ValidationError
from .models import Model, Project, Quote, Run, Upload

#: Longest name the server takes for a title (projects, uploads, requests).
TITLE_MAX = 60
#: Bytes read at a time when hashing, sending and downloading a file: memory stays flat whatever the file's size.
CHUNK = 1 << 20

T = TypeVar("T")
#: `progress(sent_bytes, total_bytes)`, called as bytes go.
ProgressFn = Callable[[int, int], None]
ProjectLike = Union[Project, str]
UploadLike = Union[Upload, str]
RunLike = Union[Run, str]
ModelLike = Union[Model, Run, str]
QuoteLike = Union[Quote, str]
PathLike = Union[str, "os.PathLike[str]"]


def _id(value: Any) -> str:
    """The id of an object (its `stamp` or `clue`) or the id itself; a dict answer of older clients works too."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        found = value.get("stamp") or value.get("clue")
    else:
        found = getattr(value, "stamp", None) or getattr(value, "clue", None)
    if not isinstance(found, str) or not found:
        raise ValidationError("Expected an id or an object with a stamp, got %r." % (value,))
    return found


def _title(name: str, what: str) -> str:
    """A default title cut to the server's limit (names the caller gives are checked by the server)."""
    name = (name or "").strip() or what
    return name if len(name) <= TITLE_MAX else name[: TITLE_MAX - 1].rstrip() + "…"

class Pages(Generic[T]):
    """A list the server answers page by page. Iterating fetches pages as they are reached (following the server's
    `next` cursor when it pages, reading everything at once when it does not); `len()`, indexing and `==` read the
    rest first, so it also behaves like a list."""

    def __init__(self, fetch: Callable[[Optional[str]], Tuple[List[T], Optional[str]]]) -> None:
        self._fetch = fetch
        self._items: List[T] = []
        self._cursor: Optional[str] = None
        self._done = False

    def _more(self) -> bool:
        if self._done:
            return False
        items, cursor = self._fetch(self._cursor)
        self._items.extend(items)
        self._cursor = cursor
        self._done = not cursor
        return True

    def __iter__(self) -> Iterator[T]:
        i = 0
        while True:
            while i < len(self._items):
                yield self._items[i]
                i += 1
            if not self._more():
                return

    def _all(self) -> List[T]:
        while self._more():
            pass
        return self._items

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> List[T]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[T, List[T]]:
        return self._all()[index]

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, Pages)) else NotImplemented

    def __repr__(self) -> str:
        return "Pages(%r)" % (self._all(),)
