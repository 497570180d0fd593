"""CSV and TSV files as people have them (pandas, Excel, Kaggle) turned into the JSON table the server reads
(`{"columns": [...], "rows": [[...], ...]}`), with the standard library, before upload. Cells are read as pandas'
read_csv reads them: its missing markers are None, numbers are numbers, true/false are booleans, anything else is text."""

from __future__ import annotations

import csv
import io
import os
import re
from typing import Any, Dict, List, Optional, Union

__all__ = ["TABLE_TEXT_EXTENSIONS", "is_table_text", "table_json_name", "converted_note", "read_table_text"]

TABLE_TEXT_EXTENSIONS = (".csv", ".tsv")
#: The largest text converted (the largest file any plan uploads) and the most columns read.
TABLE_TEXT_MAX_BYTES = 10 * 1024 * 1024
TABLE_MAX_COLUMNS = 10_000
#: The texts pandas' read_csv reads as missing by default (its `na_values`).
MISSING = {
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA",
    "NULL", "NaN", "None", "n/a", "nan", "null",
}  # fmt: skip
NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
Cell = Union[float, int, str, bool, None]


def is_table_text(path: str) -> bool:
    """Whether a file is a CSV or TSV table that is converted before upload."""
    return os.path.splitext(path)[1].lower() in TABLE_TEXT_EXTENSIONS


def table_json_name(name: str) -> str:
    """flowers.csv → flowers.json: the name the converted table is uploaded under."""
    return os.path.splitext(name)[0] + ".json"


def converted_note(name: str) -> str:
    """What the upload says it did, as every door says it."""
    return "%s is uploaded as a JSON table (%s)" % (name, table_json_name(name))


def cell(raw: str) -> Cell:
    """A cell as pandas would read it: missing → None, a number, true/false, else the text as written."""
    text = raw.strip()
    if text in MISSING:
        return None
    if NUMBER.match(text):
        number = float(text)
        if number != float("inf") and number != float("-inf"):
            return int(number) if re.match(r"^[+-]?\d+$", text) and abs(number) < 2**53 else number
    if text.lower() == "true":
        return True
    if text.lower() == "false":
        return False
    return raw


def _header(raw: List[str]) -> List[str]:
    """Header names as pandas makes them: an empty one is `Unnamed: i`, a repeated one `name.1`, `name.2`, ..."""
    used = set()
    names = []
    for i, h in enumerate(raw):
        base = h.strip() or "Unnamed: %d" % i
        name, n = base, 1
        while name in used:
            name, n = "%s.%d" % (base, n), n + 1
        used.add(name)
        names.append(name)
    return names


def read_table_text(path: str, error: Any = ValueError) -> Dict[str, Any]:
    """The JSON table of a .csv/.tsv file with a header row; `error(sentence)` is raised naming the file and what to
    fix. Short rows are filled with missing values and a longer row is refused, as pandas does."""
    name = os.path.basename(path)
    if os.path.getsize(path) > TABLE_TEXT_MAX_BYTES:
        raise error("%s is larger than 10 MB: split it, or upload it as .json" % name)
    with open(path, "r", encoding="utf-8-sig", newline="") as fh:
        text = fh.read()
    if path.lower().endswith(".tsv"):
        delimiter = "\t"
    else:
        try:
            delimiter = csv.Sniffer().sniff(text[:64 * 1024], delimiters=",;\t|").delimiter
        except csv.Error:
            delimiter = ","
    try:
        records = [r for r in csv.reader(io.StringIO(text), delimiter=delimiter, strict=True) if any(c.strip() for c in r)]
    except csv.Error as err:
        raise error("%s: a quoted value is not closed or is malformed (%s)" % (name, err)) from None
    if len(records) < 2:
        raise error("%s has no rows: a header row and at least one row of values are needed" % name)
    header = records[0]
    if len(header) > TABLE_MAX_COLUMNS:
        raise error("%s has %d columns; at most %d can be read" % (name, len(header), TABLE_MAX_COLUMNS))
    columns = _header(header)
    rows: List[List[Cell]] = []
    for i, cells in enumerate(records[1:]):
        if len(cells) > len(columns):
            raise error(
                "%s row %d has %d values but the header names %d columns" % (name, i + 2, len(cells), len(columns))
            )
        rows.append([cell(cells[c]) if c < len(cells) else None for c in range(len(columns))])
    return {"columns": columns, "rows": rows}
