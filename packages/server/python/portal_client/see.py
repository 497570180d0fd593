"""Seeing the data: an upload's preview (its first rows and per-column statistics, a text upload's texts, a model's
layers) and a generate request's map (its embeddings projected to 2D), as plain objects a notebook can plot. A module
of its own, bound to `Client` as `client.preview(upload)` and `client.projection(run)`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional

from .models import _build

__all__ = ["Preview", "Column", "Text", "Layer", "ModelSummary", "Projection", "Point"]


@dataclass
class Column:
    """One column over every row of the file: `type` is "number", "integer", "boolean", "category" (text with few
    distinct values: classes) or "text"; `missing` counts missing values (null, NaN, empty); `histogram` counts a
    numeric column's values in equal bins from `min` to `max`; `distinct` counts its values and `values` lists a
    category's or boolean's most frequent ones as `{"value", "count"}`."""

    name: str = ""
    type: str = ""
    min: Optional[float] = None
    max: Optional[float] = None
    mean: Optional[float] = None
    missing: int = 0
    histogram: List[int] = field(default_factory=list)
    distinct: Optional[int] = None
    values: List[Any] = field(default_factory=list)


@dataclass
class Text:
    """One text of a text upload (cut to 2,000 characters) and its whole length."""

    text: str = ""
    length: int = 0


@dataclass
class Layer:
    """A layer a model file builds: where it sits, its type, parameters of one instance and how many there are."""

    name: str = ""
    type: str = ""
    parameters: int = 0
    count: int = 0


@dataclass
class ModelSummary:
    parameters: int = 0
    layers: List[Layer] = field(default_factory=list)


@dataclass
class Preview:
    """What a file holds. `kind` is "table" (`rows` and `columns`), "texts", "model" or "none" (`note` says why).
    `rows` are the first 100 rows (None where a value is missing); `totalRows`/`totalCols` the whole file's."""

    kind: str = "none"
    rows: List[List[Any]] = field(default_factory=list)
    columns: List[Column] = field(default_factory=list)
    texts: List[Text] = field(default_factory=list)
    model: Optional[ModelSummary] = None
    totalRows: Optional[int] = None
    totalCols: Optional[int] = None
    #: How the JSON laid the table out: "columns-rows", "records", "split", "columns" or "matrix".
    shape: Optional[str] = None
    note: Optional[str] = None


def preview(client: Any, upload: Any) -> Preview:
    """The preview of an upload's first file, or of the file (item) given."""
    from .client import _id

    answer = client._call("GET", "/api/upload/preview", query={"upload": _id(upload)})
    return _build(Preview, answer.get("preview"))


@dataclass
class Point:
    """One point of the map: `x`, `y`, its colour `key` (the target's value or the cluster's number), the upload
    `row` it comes from (0-based) and that row's first `inputs`."""

    x: float = 0.0
    y: float = 0.0
    key: float = 0.0
    row: int = 0
    inputs: List[float] = field(default_factory=list)


@dataclass
class Projection:
    """A generate request's embeddings projected to 2D (PCA), in row order. `keyKind` is "target" or "cluster";
    `variance` the share of the variance each axis explains; `total` the rows of the result (more than
    `len(points)` when the map is an even sample). `points` is empty and `note` says why when there is no map yet."""

    points: List[Point] = field(default_factory=list)
    keyKind: str = ""
    variance: List[float] = field(default_factory=list)
    total: int = 0
    note: Optional[str] = None


def projection(client: Any, run: Any) -> Projection:
    """The map of a generate request (a Run or its id): plot `[p.x for p in points]` against `[p.y ...]`."""
    from .client import _id

    answer = client._call("GET", "/api/run/projection", query={"run": _id(run)})
    p = answer.get("projection")
    if not p:
        return Projection(note=answer.get("note"))
    points = [
        Point(x=x, y=y, key=k, row=r, inputs=i) for x, y, k, r, i in zip(p["x"], p["y"], p["key"], p["row"], p["inputs"])
    ]
    return Projection(points=points, keyKind=p["keyKind"], variance=list(p["variance"]), total=p["total"])
