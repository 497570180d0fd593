"""The portal's objects as typed dataclasses. Attribute names are the API's field names (`project.stamp`,
`upload.flight`, `run.state`, `createdAt` in epoch seconds), so the API reference and these objects read alike.

Objects are made from the server's answers; fields a newer server adds are ignored, fields an older one lacks take
their default. Every method of the client that takes one of these also takes its id (its `stamp`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Type, TypeVar

__all__ = [
    "Account",
    "Project",
    "UploadFile",
    "UploadMeta",
    "Item",
    "Box",
    "Upload",
    "UploadRef",
    "Run",
    "Event",
    "Model",
    "Quote",
    "Billing",
    "UsageDay",
    "UsageTotals",
    "Usage",
    "Integration",
]

T = TypeVar("T")

#: States in which a request (run) or model has settled.
FINAL_STATES = ("Finished", "Failed")


def _build(cls: Type[T], data: Optional[Mapping[str, Any]]) -> T:
    """An object of `cls` from an answer's dict: known fields only, nested ones converted by the class's `_nested`."""
    data = data or {}
    nested: Dict[str, Any] = getattr(cls, "_nested", {})
    values: Dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        key = f.metadata.get("api", f.name)
        if key not in data:
            continue
        value = data[key]
        convert = nested.get(f.name)
        values[f.name] = convert(value) if convert is not None else value
    return cls(**values)


def _list_of(cls: Type[T]) -> Callable[[Any], List[T]]:
    """Converts an API list, given as `{"list": [...]}` or as a plain list."""

    def convert(value: Any) -> List[T]:
        items = value.get("list", []) if isinstance(value, dict) else (value or [])
        return [_build(cls, v) for v in items]

    return convert


def _optional(cls: Type[T]) -> Callable[[Any], Optional[T]]:
    return lambda value: None if value is None else _build(cls, value)


@dataclass
class Account:
    """A client account (organisation): `stamp` is its id; `plan` is "Individual" or "Enterprise"."""

    stamp: str = ""
    name: str = ""
    plan: str = ""
    choice: str = ""
    active: int = 1


@dataclass
class Project:
    """A project (a bucket in the API): `runs` and `rends` count its requests and uploads."""

    stamp: str = ""
    name: str = ""
    runs: int = 0
    rends: int = 0
    createdAt: int = 0


@dataclass
class UploadFile:
    """The file an upload item holds: its SHA-256 `checksum` (hex), `name` and `size` in bytes."""

    checksum: str = ""
    name: str = ""
    size: int = 0


@dataclass
class UploadMeta:
    """What analysis found in a file: `proc` 0 not yet, 1 processed, 2 error (then `error` says what)."""

    proc: int = 0
    cols: Optional[int] = None
    rows: Optional[int] = None
    inputs: Optional[int] = None
    error: Optional[str] = None


@dataclass
class Item:
    """One file of an upload: `state` is "Pending", "Preparing", "Finished" or "Failed"."""

    stamp: str = ""
    name: str = ""
    state: str = ""
    file: UploadFile = field(default_factory=UploadFile)
    meta: UploadMeta = field(default_factory=UploadMeta)
    error: Optional[str] = None
    createdAt: int = 0

    _nested = {"file": lambda v: _build(UploadFile, v), "meta": lambda v: _build(UploadMeta, v)}


@dataclass
class Box:
    """An output stored from an upload, e.g. a generate request's embeddings (`run` names the request)."""

    stamp: str = ""
    name: str = ""
    run: Optional[str] = None
    size: int = 0
    createdAt: int = 0


@dataclass
class Upload:
    """An upload (a rend in the API): a group of files. `flight` is "Pending", "Processing", "Ready" or "Failed";
    only a Ready upload can be used by a request. `items` are its files (the API's `upload.list`), `boxes` its
    stored outputs (`box.list`)."""

    stamp: str = ""
    name: str = ""
    flight: str = ""
    createdAt: int = 0
    runs: int = 0
    items: List[Item] = field(default_factory=list, metadata={"api": "upload"})
    boxes: List[Box] = field(default_factory=list, metadata={"api": "box"})

    _nested = {"items": _list_of(Item), "boxes": _list_of(Box)}

    @property
    def errors(self) -> List[str]:
        """The sentence of each file that failed analysis, e.g. 'Row 2 has 2 values; expected 4.'"""
        return [
            e for e in ((i.meta.error or i.error) for i in self.items if i.state == "Failed" or i.meta.proc == 2) if e
        ]


@dataclass
class UploadRef:
    """How requests, models and quotes name their upload."""

    stamp: str = ""
    name: str = ""


@dataclass
class Run:
    """A request (a run in the API). `function` is "fit", "generate" or "shrink"; `state` is e.g. "Pending",
    "Processing", "Finished" or "Failed", and `message` says why when it failed. A generate request names the fit
    request whose model it applies in `fit`."""

    stamp: str = ""
    name: str = ""
    desc: str = ""
    function: str = ""
    state: str = ""
    message: str = ""
    createdAt: int = 0
    rend: Optional[UploadRef] = None
    fit: Optional[str] = None
    quote: Optional[str] = None
    startedAt: Optional[int] = None
    finishedAt: Optional[int] = None

    _nested = {"rend": _optional(UploadRef)}

    @property
    def done(self) -> bool:
        """True once the request has settled (Finished or Failed)."""
        return self.state in FINAL_STATES


@dataclass
class Event:
    """One entry of a request's event log. `kind` is "state" (data `{"state"}`), "progress" (a fit's `{"epoch",
    "epochs", "loss", "valLoss", "points"}` or a generate's `{"rows", "total"}`) or "log" (a sentence in
    `message`). `seq` orders them; `at` is epoch seconds."""

    seq: int = 0
    at: int = 0
    kind: str = ""
    message: str = ""
    data: Optional[Dict[str, Any]] = None


@dataclass
class Model:
    """A trained model of a project, or a general model (usable by every project). Pass it to `generate` to reuse
    it; only a Finished model can be reused."""

    stamp: str = ""
    name: str = ""
    desc: str = ""
    state: str = ""
    message: str = ""
    createdAt: int = 0
    rend: Optional[UploadRef] = None

    _nested = {"rend": _optional(UploadRef)}


@dataclass
class Quote:
    """A shrink request's quote: `cent` is the amount in cents, `state` "Unpaid" or "Paid"; `run` is the request
    the quote started once paid (when read with `Client.quote`)."""

    stamp: str = ""
    name: str = ""
    desc: str = ""
    function: str = ""
    state: str = ""
    message: str = ""
    cent: int = 0
    invoiceNum: str = ""
    createdAt: int = 0
    rend: Optional[UploadRef] = None
    bucket: Optional[str] = None
    run: Optional[Run] = None

    _nested = {"rend": _optional(UploadRef), "run": _optional(Run)}


@dataclass
class Billing:
    """The account's credit (`creditBalance`, `creditConsumed`: millions of input parameters, as decimal strings),
    outstanding balance in cents and the payment portal's link."""

    creditBalance: str = "0"
    creditConsumed: str = "0"
    accountCentBalance: int = 0
    portalUrl: str = ""


@dataclass
class UsageDay:
    """One UTC day of usage: requests made, input parameters processed and the amount quoted in cents."""

    date: str = ""
    fits: int = 0
    generates: int = 0
    shrinks: int = 0
    parameters: int = 0
    cents: int = 0


@dataclass
class UsageTotals:
    """The sums of a usage period."""

    fits: int = 0
    generates: int = 0
    shrinks: int = 0
    parameters: int = 0
    cents: int = 0


@dataclass
class Usage:
    """Usage of the account over the last days: one entry per day, the totals, and the quotes of the period."""

    days: List[UsageDay] = field(default_factory=list)
    totals: UsageTotals = field(default_factory=UsageTotals)
    quotes: List[Quote] = field(default_factory=list)

    _nested = {"days": _list_of(UsageDay), "totals": lambda v: _build(UsageTotals, v), "quotes": _list_of(Quote)}


@dataclass
class Integration:
    """An integration key for the language-model service: `runs` counts the requests it served, `runAt` is the last
    one (epoch seconds, None before the first). The token is masked."""

    clue: str = ""
    name: str = ""
    service: str = ""
    token: str = ""
    runs: int = 0
    runAt: Optional[int] = None
    active: int = 1
    createdAt: int = 0
