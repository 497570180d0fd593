"""Uploads: sending real files (one or several as one upload, hashed and sent in chunks, resumed after a cut-off),
listing a project's uploads and waiting for one to be Ready. The methods of `Client` that do it, in a module of their
own (client.py holds the rest of the flows)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from ._common import CHUNK, TITLE_MAX, PathLike, ProgressFn, ProjectLike, UploadLike, _id
from ._http import Transport
from .errors import AuthError, ConflictError, NotFoundError, PortalError, UploadFailed, ValidationError
from .models import Upload, _build
from .tables import converted_note, is_table_text, read_table_text, table_json_name

__all__ = ["UploadMethods", "upload_name"]

#: Tries per file sent (the first and two more), as the CLI does.
PUT_TRIES = 3


def upload_name(paths: Sequence[str]) -> str:
    """An upload's default name: the first file's name, plus " (+N more)" for extra files, within the title limit."""
    suffix = " (+%d more)" % (len(paths) - 1) if len(paths) > 1 else ""
    first = os.path.basename(paths[0]).strip() or "Upload"
    if len(first) + len(suffix) > TITLE_MAX:
        first = first[: TITLE_MAX - len(suffix) - 1].rstrip() + "…"
    return first + suffix

def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while True:
            chunk = fh.read(CHUNK)
            if not chunk:
                return digest.hexdigest()
            digest.update(chunk)

class _Progress:
    """Bytes sent across all files of one upload call, reported to a callback or a tqdm bar (when tqdm is installed)."""

    def __init__(self, total: int, callback: Optional[ProgressFn], label: str) -> None:
        self.total = total
        self.sent = 0
        self._callback = callback
        self._bar: Any = None
        if callback is None:
            try:
                from tqdm.auto import tqdm  # type: ignore[import-not-found,import-untyped,unused-ignore]

                self._bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=label)
            except ImportError:
                self._bar = None

    def add(self, n: int) -> None:
        self.sent += n
        if self._callback is not None:
            self._callback(self.sent, self.total)
        if self._bar is not None:
            self._bar.update(n)

    def back(self, n: int) -> None:
        """A try that failed part-way: its bytes will be sent again."""
        self.sent -= n
        if self._bar is not None:
            self._bar.update(-n)
        if self._callback is not None:
            self._callback(self.sent, self.total)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

class UploadMethods:
    """The upload methods of `Client` (which gives them its transport, `_call` and `poll_interval`)."""

    _http: Transport
    poll_interval: float

    def _call(
        self, method: str, path: str, body: Optional[Dict[str, Any]] = None, query: Optional[Dict[str, Any]] = None
    ) -> Dict[str, Any]:
        raise NotImplementedError

    def uploads(self, project: ProjectLike) -> List[Upload]:
        """The project's uploads, newest first, with their files (`items`) and states (`flight`)."""
        answer = self._call("GET", "/api/rend/item", query={"active": 1, "bucket": _id(project)})
        return [_build(Upload, x) for x in answer["rend"]["list"]]

    def get_upload(self, project: ProjectLike, upload: UploadLike) -> Upload:
        """One upload of the project as it is now; NotFoundError when it is gone."""
        stamp = _id(upload)
        for u in self.uploads(project):
            if u.stamp == stamp:
                return u
        raise NotFoundError(
            "Upload %s is not in this project (it may have been removed)." % stamp, status=404, code="not_found"
        )

    def upload(
        self,
        project: ProjectLike,
        path_or_paths: Union[PathLike, Sequence[PathLike]],
        name: Optional[str] = None,
        wait: bool = True,
        progress: Optional[ProgressFn] = None,
        resume: Union[bool, UploadLike] = False,
        timeout: float = 600,
    ) -> Upload:
        """Uploads one file or several files as one upload of the project and answers it (once Ready with wait=True;
        UploadFailed when its files cannot be read).

        Each file is hashed and sent in chunks, so memory stays flat for a file of any size. `progress(sent, total)`
        is called as bytes go, across all files; without it a tqdm bar is shown when tqdm is installed. Every file is
        registered before any byte is sent, so a wrong type or a file over the plan's limit is refused at once.
        An upload cut off part-way stays in the project: `resume=True` continues the newest unfinished upload of
        these files (or `resume=<upload>` that one), sending only the files that did not arrive.
        """
        raw_paths = [path_or_paths] if isinstance(path_or_paths, (str, os.PathLike)) else list(path_or_paths)
        paths = [os.fspath(p) for p in raw_paths]
        if not paths:
            raise ValidationError("No files to upload: pass a path or a list of paths.")
        for p in paths:
            if not os.path.isfile(p):
                raise ValidationError("%s is not a file that can be read: check the path." % p)
        # A .csv/.tsv becomes the JSON table the server reads, written beside nothing of the user's (a folder of ours).
        notes: List[str] = []
        converted = None
        if any(is_table_text(p) for p in paths):
            converted = tempfile.mkdtemp(prefix="portal-table-")
            for i, p in enumerate(paths):
                if not is_table_text(p):
                    continue
                table = read_table_text(p, ValidationError)
                out = os.path.join(converted, table_json_name(os.path.basename(p)))
                with open(out, "w", encoding="utf-8") as fh:
                    json.dump(table, fh, allow_nan=False)
                paths[i] = out
                notes.append(converted_note(os.path.basename(p)))
                print(notes[-1], file=sys.stderr)
        try:
            group = self._upload_files(project, paths, name, wait, progress, resume, timeout)
        finally:
            if converted:
                shutil.rmtree(converted, ignore_errors=True)
        group.notes = notes
        return group

    def _upload_files(
        self,
        project: ProjectLike,
        paths: List[str],
        name: Optional[str],
        wait: bool,
        progress: Optional[ProgressFn],
        resume: Union[bool, UploadLike],
        timeout: float,
    ) -> Upload:
        bucket = _id(project)
        sizes = [os.path.getsize(p) for p in paths]
        names = [os.path.basename(p) for p in paths]
        checksums = [_sha256(p) for p in paths]

        group = self._unfinished(bucket, names, resume) if resume else None
        made = group is None
        if group is None:
            group = _build(
                Upload,
                self._call(
                    "PUT",
                    "/api/rend/item",
                    {"bucket": bucket, "name": name if name is not None else upload_name(paths)},
                )["rend"],
            )
        # A file the upload already holds (past Pending) is skipped; one registered but cut off (Pending) is sent again.
        held = {(i.file.name, i.file.size, i.file.checksum): i.state for i in group.items if i.state != "Failed"}
        bar = _Progress(sum(sizes), progress, group.name)
        sending = False
        try:
            # Registering every file first lets the server refuse a wrong type or size before any byte goes.
            todo = []
            for path, file_name, size, checksum in zip(paths, names, sizes, checksums):
                state = held.get((file_name, size, checksum))
                if state is not None and state != "Pending":
                    bar.add(size)
                    continue
                todo.append((path, self._register(group.stamp, file_name, size, checksum), state == "Pending"))
            sending = True
            for path, item, again in todo:
                self._send(group.stamp, path, item, again, bar)
                self._call("POST", "/api/upload/finish", {"upload": item["stamp"]})
            group = _build(Upload, self._call("POST", "/api/rend/finish", {"rend": group.stamp})["rend"])
        except PortalError as err:
            if sending:
                kept = (
                    " The upload %s (%s) is kept: call upload(..., resume=True) to send only what did not arrive."
                    % (
                        group.name,
                        group.stamp,
                    )
                )
                err.message = str(err) + kept
                err.args = (err.message,)
            elif made:
                self._discard(group)
            raise
        finally:
            bar.close()
        return self.wait_upload(bucket, group, timeout=timeout) if wait else group

    def _discard(self, group: Upload) -> None:
        """Removes an upload this call made when a file was refused before any byte was sent, so it does not linger.
        An API key may not remove uploads: the empty upload then stays, and `resume=True` takes it up again."""
        try:
            self._call("POST", "/api/rend/remove", {"rend": group.stamp, "active": 0})
        except AuthError:
            return

    def _unfinished(self, bucket: str, names: List[str], resume: Union[bool, UploadLike]) -> Upload:
        """The unfinished upload to continue: the given one, or the newest Pending one whose files are all among
        these."""
        wanted = set(names)
        for u in self.uploads(bucket):
            if resume is True and u.flight == "Pending" and all(i.file.name in wanted for i in u.items):
                return u
            if resume is not True and u.stamp == _id(resume):
                if u.flight != "Pending":
                    raise ConflictError(
                        "Upload %s (%s) is %s: there is nothing to continue." % (u.name, u.stamp, u.flight)
                    )
                return u
        if resume is True:
            raise NotFoundError(
                "No unfinished upload of these files in this project to continue: upload them without resume=True.",
                status=404,
                code="not_found",
            )
        raise NotFoundError("No upload %s in this project (see uploads())." % _id(resume), status=404, code="not_found")

    def _register(self, rend: str, file_name: str, size: int, checksum: str) -> Dict[str, Any]:
        """Registers a file (again: a file the upload holds as Pending answers the same item with a fresh link)."""
        body = {"rend": rend, "name": file_name, "file": {"checksum": checksum, "name": file_name, "size": size}}
        item: Dict[str, Any] = self._call("PUT", "/api/upload/item", body)["upload"]
        return item

    def _send(self, rend: str, path: str, item: Dict[str, Any], again: bool, bar: _Progress) -> None:
        """Sends one file's bytes in chunks, trying again after a lost connection or a server error. `again`: the file
        was registered by an upload that was cut off, so its bytes may have arrived already."""
        size = int(item["file"]["size"])
        for attempt in range(1, PUT_TRIES + 1):
            sent = [0]

            def chunks(sent: List[int] = sent) -> Iterable[bytes]:
                with open(path, "rb") as fh:
                    while True:
                        chunk = fh.read(CHUNK)
                        if not chunk:
                            return
                        sent[0] += len(chunk)
                        bar.add(len(chunk))
                        yield chunk

            try:
                self._http.put_bytes(item["url"], chunks(), size)
                return
            except ConflictError:
                # The storage already holds the bytes: an earlier try (or the cut-off one being continued) arrived.
                if attempt > 1 or again:
                    bar.back(sent[0])
                    bar.add(size)
                    return
                raise
            except AuthError:
                # The link ran out (15 minutes) while earlier files were sent: the same file gets a fresh one.
                bar.back(sent[0])
                if attempt >= PUT_TRIES:
                    raise
                item = self._register(rend, item["file"]["name"], size, item["file"]["checksum"])
            except PortalError as err:
                bar.back(sent[0])
                if attempt >= PUT_TRIES or (
                    err.status is not None and 400 <= err.status < 500 and err.status not in (408, 429)
                ):
                    raise
                time.sleep(0.5 * 2 ** (attempt - 1))

    def wait_upload(self, project: ProjectLike, upload: UploadLike, timeout: float = 600) -> Upload:
        """Waits until the upload is Ready and answers it; UploadFailed (with each file's sentence) when it Failed."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.get_upload(project, upload)
            if found.flight == "Ready":
                return found
            if found.flight == "Failed":
                raise UploadFailed("; ".join(found.errors) or "The upload %s failed." % found.stamp, found)
            if time.monotonic() > deadline:
                raise PortalError("The upload is still %s after %g seconds." % (found.flight, timeout), code="timeout")
            time.sleep(self.poll_interval)
