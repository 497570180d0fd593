"""The portal's objects as typed dataclasses. Attribute names are the API's field names (`project.stamp`,
`upload.flight`, `run.state`, `createdAt` in epoch seconds), so the API reference and these objects read alike.
Beside them, the names people use (docs/GLOSSARY.md): `id` (the `stamp`, or a key's `clue`), `status` (an upload's
`flight`, a request's, model's, quote's or file's `state`) and `created_at` (`createdAt` as a UTC datetime).

Objects are made from the server's answers; fields a newer server adds are ignored, fields an older one lacks take
their default. Every method of the client that takes one of these also takes its id (its `stamp`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import (
    Any,
    Callable,
    Dict,
    List,
    Mapping,
    Optional,
    Tuple,
    Type,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

__all__ = [
    "Account",
    "Project",
    "UploadFile",
    "UploadMeta",
    "Item",
    "Box",
    "Upload",
    "UploadRef",
    "Metrics",
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


class _Named:
    """The names people use, read from the API's: `id`, `status` and `created_at` (only where the object has the API's
    field: an object without a state has no `status`)."""

    @property
    def id(self) -> str:
        """The object's id: its `stamp` (a key's `clue`)."""
        return str(getattr(self, "stamp", None) or getattr(self, "clue", ""))

    @property
    def status(self) -> str:
        """An upload's `flight`; a request's, model's, quote's or file's `state`."""
        for name in ("flight", "state"):
            if hasattr(self, name):
                return str(getattr(self, name))
        raise AttributeError("%s has no status" % type(self).__name__)

    @property
    def created_at(self) -> datetime:
        """When the object was made (`createdAt`, epoch seconds) as a UTC datetime."""
        if not hasattr(self, "createdAt"):
            raise AttributeError("%s has no created_at" % type(self).__name__)
        return datetime.fromtimestamp(getattr(self, "createdAt"), tz=timezone.utc)

#: States in which a request (run) or model has settled.
FINAL_STATES = ("Finished", "Failed")


def _build(cls: Type[T], data: Optional[Mapping[str, Any]]) -> T:
    """An object of `cls` from an answer's dict: its known fields only, each converted as its type says (`_convert`)."""
    data = data or {}
    values: Dict[str, Any] = {}
    for name, key, convert in _fields(cls):
        if key in data:
            values[name] = data[key] if convert is None else convert(data[key])
    return cls(**values)


_FIELDS: Dict[type, List[Tuple[str, str, Optional[Callable[[Any], Any]]]]] = {}


def _fields(cls: type) -> List[Tuple[str, str, Optional[Callable[[Any], Any]]]]:
    """Each field of a dataclass: its name, the answer's key for it (`metadata["api"]`, else the name) and how a value
    becomes it (None: as it is). Read from the class once."""
    if cls not in _FIELDS:
        hints = get_type_hints(cls)
        _FIELDS[cls] = [(f.name, f.metadata.get("api", f.name), _convert(hints[f.name])) for f in dataclasses.fields(cls)]
    return _FIELDS[cls]


def _convert(hint: Any) -> Optional[Callable[[Any], Any]]:
    """How an answer's value becomes a field of type `hint`: a dataclass is built from its dict, an Optional one is
    None when the answer has none (null or empty), a list of them is built item by item (the API gives lists as
    `{"list": [...]}` or plain); None for anything else, which is kept as it is."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Union and type(None) in args:
        inner = _convert(next(a for a in args if a is not type(None)))
        return None if inner is None else (lambda value: inner(value) if value else None)
    if origin is list and args:
        item = _convert(args[0])
        if item is None:
            return None
        return lambda value: [item(v) for v in (value.get("list", []) if isinstance(value, dict) else (value or []))]
    if dataclasses.is_dataclass(hint):
        return lambda value: _build(hint, value)
    return None


@dataclass
class Account(_Named):
    """A client account (organisation): `stamp` is its id; `plan` is "Individual" or "Enterprise"."""

    stamp: str = ""
    name: str = ""
    plan: str = ""
    choice: str = ""
    active: int = 1


@dataclass
class Project(_Named):
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
class Item(_Named):
    """One file of an upload: `state` is "Pending", "Preparing", "Finished" or "Failed"."""

    stamp: str = ""
    name: str = ""
    state: str = ""
    file: UploadFile = field(default_factory=UploadFile)
    meta: UploadMeta = field(default_factory=UploadMeta)
    error: Optional[str] = None
    createdAt: int = 0



@dataclass
class Box(_Named):
    """An output stored from an upload, e.g. a generate request's embeddings (`run` names the request)."""

    stamp: str = ""
    name: str = ""
    run: Optional[str] = None
    size: int = 0
    createdAt: int = 0


@dataclass
class Upload(_Named):
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
    #: What `Client.upload` did on the way, e.g. "flowers.csv is uploaded as a JSON table (flowers.json)".
    notes: List[str] = field(default_factory=list, metadata={"api": "_notes"})


    @property
    def errors(self) -> List[str]:
        """The sentence of each file that failed analysis, e.g. 'Row 2 has 2 values; expected 4.'"""
        return [
            e for e in ((i.meta.error or i.error) for i in self.items if i.state == "Failed" or i.meta.proc == 2) if e
        ]


@dataclass
class UploadRef(_Named):
    """How requests, models and quotes name their upload."""

    stamp: str = ""
    name: str = ""


@dataclass
class Metrics:
    """A fit's score on held-out rows (rows that neither trained it nor decided when to stop): `name` is "accuracy"
    (classification, 0 to 1) or "r2" (regression), measured on `rows` rows."""

    name: str = ""
    value: float = 0.0
    rows: int = 0


@dataclass
class _Work(_Named):
    """What a request and its quote both hold first: the request's id, title, description, function ("fit",
    "generate" or "shrink"), state and the sentence on why it failed."""

    stamp: str = ""
    name: str = ""
    desc: str = ""
    function: str = ""
    state: str = ""
    message: str = ""


@dataclass
class Run(_Work):
    """A request (a run in the API). `function` is "fit", "generate" or "shrink"; `state` is e.g. "Pending",
    "Processing", "Finished" or "Failed", and `message` says why when it failed. A generate request names the fit
    request whose model it applies in `fit`."""

    createdAt: int = 0
    rend: Optional[UploadRef] = None
    fit: Optional[str] = None
    quote: Optional[str] = None
    startedAt: Optional[int] = None
    finishedAt: Optional[int] = None
    #: A finished fit's held-out score: `metrics.name` "accuracy" or "r2", `metrics.value`, `metrics.rows`.
    metrics: Optional[Metrics] = None
    #: A fit's plain note, e.g. "stopped early at epoch 14: validation loss rose".
    note: Optional[str] = None


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
class Model(_Named):
    """A trained model of a project, or a general model (usable by every project). Pass it to `generate` to reuse
    it; only a Finished model can be reused."""

    stamp: str = ""
    name: str = ""
    desc: str = ""
    state: str = ""
    message: str = ""
    createdAt: int = 0
    rend: Optional[UploadRef] = None



@dataclass
class Quote(_Work):
    """A shrink request's quote: `cent` is the amount in cents, `state` "Unpaid" or "Paid"; `run` is the request
    the quote started once paid (when read with `Client.quote`)."""

    cent: int = 0
    invoiceNum: str = ""
    createdAt: int = 0
    rend: Optional[UploadRef] = None
    bucket: Optional[str] = None
    run: Optional[Run] = None



@dataclass
class Billing:
    """The account's credit (`creditBalance`, `creditConsumed`: millions of input parameters, as decimal strings),
    outstanding balance in cents and the payment portal's link."""

    creditBalance: str = "0"
    creditConsumed: str = "0"
    accountCentBalance: int = 0
    portalUrl: str = ""


@dataclass
class UsageTotals:
    """The sums of a usage period: requests made, input parameters processed and the amount quoted in cents."""

    fits: int = 0
    generates: int = 0
    shrinks: int = 0
    parameters: int = 0
    cents: int = 0


@dataclass
class UsageDay(UsageTotals):
    """One UTC day of usage (`date`, e.g. "2026-11-26"): the same counts as the period's totals, for that day."""

    date: str = ""


@dataclass
class Usage:
    """Usage of the account over the last days: one entry per day, the totals, and the quotes of the period."""

    days: List[UsageDay] = field(default_factory=list)
    totals: UsageTotals = field(default_factory=UsageTotals)
    quotes: List[Quote] = field(default_factory=list)



@dataclass
class Integration(_Named):
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
