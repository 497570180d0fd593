"""The portal API client: one method per step of the product's flows (projects, uploads, models, requests, results,
quotes, billing, usage), over the standard library's urllib. Sending files is in uploads.py, bound here as a base."""

from __future__ import annotations

import base64
import json
import os
import time
import urllib.request
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ._common import CHUNK, ModelLike, Pages, PathLike, ProgressFn, ProjectLike, QuoteLike, RunLike, T, UploadLike, _id, _title
from ._http import DEFAULT_TIMEOUT, KEY_PREFIX, Transport
from .errors import AuthError, PortalError, RunFailed, ValidationError
from .models import FINAL_STATES, Account, Billing, Event, Integration, Model, Project, Quote, Run, Usage, _build
from .uploads import UploadMethods, upload_name

__all__ = ["Client", "Pages", "ProgressFn", "upload_name"]

DEFAULT_API = "http://localhost:8080"
#: Items asked for per page of a list that pages (projects, requests).
PAGE_SIZE = 100
#: Most events one answer of the events call carries; a shorter page means the log is read to its end.
EVENTS_PAGE = 500


class Client(UploadMethods):
    """Talks to the portal API with a client API key's token (or a signed-in user's token, see `Client.login`).

    `token` defaults to the PORTAL_TOKEN environment variable, `base_url` to PORTAL_API (else
    http://localhost:8080), `client` (the account id) to PORTAL_CLIENT, else the token's own account. A call with no
    answer after `timeout` seconds (PORTAL_TIMEOUT, default 30; 0 waits forever) raises NetworkError; reads are
    tried 3 times when the server cannot be reached or answers 502, 503 or 504. `poll_interval` is the seconds
    between looks while waiting for an upload or a request.
    """

    def __init__(
        self,
        token: Optional[str] = None,
        base_url: Optional[str] = None,
        client: Optional[str] = None,
        timeout: Optional[float] = None,
        poll_interval: float = 1.0,
        api: Optional[str] = None,
    ) -> None:
        token = token or os.environ.get("PORTAL_TOKEN")
        if not token:
            raise AuthError("No token: pass Client(token=...) or set PORTAL_TOKEN.")
        # `api` is accepted as another name for base_url (the CLI calls the API base --api).
        self.base_url: str = (base_url or api or os.environ.get("PORTAL_API") or DEFAULT_API).rstrip("/")
        if timeout is None:
            raw = os.environ.get("PORTAL_TIMEOUT")
            try:
                timeout = float(raw) if raw else DEFAULT_TIMEOUT
            except ValueError:
                raise ValidationError("PORTAL_TIMEOUT must be a number of seconds, got %r." % raw) from None
        self.poll_interval: float = poll_interval
        # 0 waits forever, as in the CLI.
        self._http = Transport(token, self.base_url, timeout or None)
        self._client: Optional[str] = client or os.environ.get("PORTAL_CLIENT")

    @classmethod
    def login(
        cls, email: str, password: str, base_url: Optional[str] = None, client: Optional[str] = None, **options: Any
    ) -> Client:
        """Signs in with an email and password, for the calls an API key may not make (billing, usage,
        integrations). The session token is refreshed as it nears its end."""
        timeout = options.get("timeout")
        base = (base_url or os.environ.get("PORTAL_API") or DEFAULT_API).rstrip("/")
        transport = Transport("", base, DEFAULT_TIMEOUT if timeout is None else timeout or None)
        basic = base64.b64encode(("%s:%s" % (email, password)).encode("utf-8")).decode("ascii")
        request = urllib.request.Request(
            transport.url("/api/user/login"), data=b"", method="POST", headers={"Authorization": "Basic " + basic}
        )
        answer = transport.open(request, False, lambda resp: json.loads(resp.read().decode("utf-8")))
        return cls(token=answer["token"], base_url=transport.base_url, client=client, **options)

    @property
    def token(self) -> str:
        """The token in use (a fresh one from the server replaces it)."""
        return self._http.token

    @property
    def timeout(self) -> Optional[float]:
        """Seconds a call may take (None: no limit)."""
        return self._http.timeout

    def _call(
        self, method: str, path: str, body: Optional[Dict[str, Any]] = None, query: Optional[Dict[str, Any]] = None
    ) -> Dict[str, Any]:
        return self._http.call(method, path, body, query)

    # ---- the account ----
    def accounts(self) -> List[Account]:
        """The accounts the token may use: an API key's own account, or every account of a signed-in user."""
        perms = self._call("GET", "/api/user/permission")
        if isinstance(perms, dict):
            perms = perms.get("permission", {}).get("list", [])
        return [_build(Account, p["client"]) for p in perms]

    def client_id(self) -> str:
        """The account (client) the calls work in: the one given, else the token's first."""
        if self._client:
            return self._client
        try:
            accounts = self.accounts()
        except AuthError as err:
            # A wrong or removed key is refused as such ('Invalid API key'): say that, not that the account is unknown.
            if err.status == 403:
                raise AuthError(
                    "The server did not say which account this token belongs to (%s); "
                    "pass Client(client=...) or set PORTAL_CLIENT." % err,
                    status=err.status,
                    code=err.code,
                ) from None
            raise
        if not accounts:
            raise AuthError("This token has no account.")
        self._client = accounts[0].stamp
        return self._client

    # ---- projects ----
    def _paged(self, path: str, key: str, query: Dict[str, Any], build: Callable[[Dict[str, Any]], T]) -> Pages[T]:
        def fetch(cursor: Optional[str]) -> Tuple[List[T], Optional[str]]:
            answer = self._call("GET", path, query={**query, "limit": PAGE_SIZE, "cursor": cursor})
            part = answer.get(key) or {}
            cursor = part.get("next", answer.get("next"))
            return [build(x) for x in part.get("list", [])], cursor if isinstance(cursor, str) and cursor else None

        return Pages(fetch)

    def projects(self) -> Pages[Project]:
        """The account's projects, oldest first, fetched page by page as they are iterated."""
        return self._paged(
            "/api/bucket/item", "bucket", {"active": 1, "client": self.client_id()}, lambda x: _build(Project, x)
        )

    def create_project(self, name: str) -> Project:
        """Creates a project in the account. A name of 1 to 60 characters (else ValidationError with the rule)."""
        return _build(
            Project, self._call("PUT", "/api/bucket/item", {"client": self.client_id(), "name": name})["bucket"]
        )

    def rename_project(self, project: ProjectLike, name: str) -> Project:
        """Renames a project; answers it as it is now."""
        return _build(Project, self._call("POST", "/api/bucket/name", {"bucket": _id(project), "name": name})["bucket"])

    def project(self, name: str = "My first project") -> Project:
        """The account's project with this name, created when there is none (a new account has no project)."""
        for p in self.projects():
            if p.name == name.strip():
                return p
        return self.create_project(name)

    # ---- models ----
    def models(self, project: ProjectLike) -> List[Model]:
        """The project's own models (trained by its fit requests), newest first."""
        answer = self._call("GET", "/api/client/model/item", query={"active": 1, "bucket": _id(project)})
        return [_build(Model, x) for x in answer["model"]["list"]]

    def general_models(self) -> List[Model]:
        """The general models every project may use with `generate`."""
        answer = self._call("GET", "/api/general/model/item", query={"active": 1})
        return [_build(Model, x) for x in answer["model"]["list"]]

    # ---- requests ----
    def fit(
        self,
        project: ProjectLike,
        upload: UploadLike,
        inputs: Optional[Union[int, Sequence[str]]] = None,
        outputs: Optional[int] = None,
        target: Union[int, str, Sequence[str]] = 1,
        task: Optional[str] = None,
        explainability: bool = False,
        name: Optional[str] = None,
        model: Optional[ModelLike] = None,
        wait: bool = False,
        timeout: float = 3600,
    ) -> Run:
        """Trains a model on a Ready .json upload (rows of `inputs` numbers followed by `target` numbers) and
        generates its embeddings of `outputs` numbers per row; answers the generate request (its `fit` names the
        training request). With `model=` an existing Finished model (or general model) is reused instead of training.
        With wait=True it returns once Finished and raises RunFailed when it failed.

        By column name, as scikit-learn and pandas users pick them: `target="label"` (or a list of names) and
        `inputs=["f1", "f2"]` (default: every other column); the task defaults to what the target holds (classes:
        classification, numbers: regression) and `outputs` to the number of inputs, at most 5. The held-out score is
        on the fit request: `client.run(run.fit).metrics`."""
        if model is not None:
            return self.generate(project, upload, model, name=name, wait=wait, timeout=timeout)
        bucket, rend = _id(project), _id(upload)
        named = isinstance(target, str) or (not isinstance(target, int) and target is not None)
        named = named or (inputs is not None and not isinstance(inputs, int))
        columns: Dict[str, Any] = {}
        if named:
            targets = [target] if isinstance(target, str) else [str(t) for t in target] if not isinstance(target, int) else []
            if not targets:
                raise ValidationError('Name the target column too: fit(..., target="label", inputs=[...]).')
            preview = self._call("GET", "/api/upload/preview", query={"upload": rend})["preview"]
            kinds = {c["name"]: c for c in preview.get("columns", [])}
            if inputs is None:
                inputs = [c for c in kinds if c not in targets]
            if isinstance(inputs, int):
                raise ValidationError("inputs= takes column names when target= names a column, e.g. inputs=[\"f1\", \"f2\"].")
            inputs = [str(i) for i in inputs]
            if task is None:
                first = kinds.get(targets[0], {})
                classes = first.get("type") in ("category", "boolean", "text") or (
                    first.get("type") == "integer" and (first.get("distinct") or 10**9) <= 20
                )
                task = "classification" if classes else "regression"
            columns = {"input_columns": inputs, "target_columns": targets}
            sizes = (len(inputs), len(targets))
            if outputs is None:
                outputs = max(1, min(len(inputs), 5))
        else:
            if inputs is None or outputs is None:
                raise ValidationError(
                    "Please fill out all fields: fit needs inputs= and outputs= (or model= to reuse one)."
                )
            sizes = (int(inputs), int(target))  # type: ignore[arg-type]
        param = {
            "explainability": bool(explainability),
            "input_column_size": sizes[0],
            "output_column_size": int(outputs),
            "task_target_size": sizes[1],
            "task": task or "regression",
            **columns,
        }
        pile = self._call("PUT", "/api/pile/item", {"bucket": bucket, "variety": "FitModel", "param": param})["pile"][
            "stamp"
        ]
        title = _title(name or "", "Fit from Python")
        fit = self._call(
            "PUT",
            "/api/run/item/generate",
            {"bucket": bucket, "function": "fit", "rend": rend, "pile": pile, "name": title},
        )["run"]["stamp"]
        return self.generate(bucket, rend, fit, name=title, wait=wait, timeout=timeout)

    def generate(
        self,
        project: ProjectLike,
        upload: UploadLike,
        model: ModelLike,
        name: Optional[str] = None,
        wait: bool = False,
        timeout: float = 3600,
        dimensions: Optional[int] = None,
    ) -> Run:
        """Generates embeddings of a Ready .json upload with a model: a model of the project or a general model
        (from `models()` / `general_models()`), or a fit request (its model). Answers the request; with wait=True
        once Finished (RunFailed when it failed). `dimensions` is the vectors' width for the OpenAI text embeddings
        model (a text upload: a .json list of strings); other models take none."""
        body: Dict[str, Any] = {
            "bucket": _id(project),
            "function": "generate",
            "rend": _id(upload),
            "fit": _id(model),
            "name": _title(name or getattr(model, "name", "") or "", "Generate from Python"),
        }
        if dimensions is not None:
            body["dimensions"] = dimensions
        run = _build(Run, self._call("PUT", "/api/run/item/generate", body)["run"])
        return self.wait(run, timeout=timeout) if wait else run

    def shrink(self, project: ProjectLike, upload: UploadLike, name: Optional[str] = None, desc: str = "") -> Quote:
        """Asks for a shrink of a Ready upload holding one .py model: answers its quote (`cent` to pay; a quote the
        free credit covers starts at once). `desc` is up to 300 characters."""
        bucket = _id(project)
        pile = self._call("PUT", "/api/pile/item", {"bucket": bucket, "variety": "ShrinkService", "param": {}})["pile"][
            "stamp"
        ]
        body = {
            "bucket": bucket,
            "function": "shrink",
            "rend": _id(upload),
            "pile": pile,
            "name": _title(name or "", "Shrink from Python"),
            "desc": desc,
        }
        return _build(Quote, self._call("PUT", "/api/run/item/shrink", body)["quote"])

    def quote(self, quote: QuoteLike) -> Quote:
        """A quote as it is now, with the request it started once paid (`quote.run`)."""
        answer = self._call("GET", "/api/quote/status", query={"quote": _id(quote)})["quote"]
        return _build(Quote, {**answer["record"], "run": answer.get("run")})

    def runs(self, project: ProjectLike, state: Optional[str] = None, function: Optional[str] = None) -> Pages[Run]:
        """The project's requests, newest first, fetched page by page as they are iterated; optionally only one
        state ("Finished", ...) or function ("fit", "generate", "shrink")."""
        query = {"active": 1, "bucket": _id(project), "state": state, "function": function}
        return self._paged("/api/run/item", "run", query, lambda x: _build(Run, x))

    def run(self, run: RunLike) -> Run:
        """A request as it is now."""
        return self._status(run)[0]

    def _status(self, run: RunLike) -> Tuple[Run, Optional[str]]:
        answer = self._call("GET", "/api/run/status", query={"run": _id(run)})["run"]
        return _build(Run, answer["record"]), answer.get("url")

    def events(self, run: RunLike, follow: bool = False) -> Iterator[Event]:
        """The request's event log (state changes, training progress, notes), oldest first. With follow=True it
        keeps yielding events as they come and ends once the request has Finished or Failed."""
        stamp = _id(run)
        after = 0
        settled = False
        while True:
            answer = self._call("GET", "/api/run/events", query={"run": stamp, "after": after})
            batch = answer["event"]["list"]
            for raw in batch:
                event = _build(Event, raw)
                after = max(after, event.seq)
                yield event
            if len(batch) >= EVENTS_PAGE:
                continue
            if not follow or settled:
                return
            # Settled: one more read takes the events written up to the final state.
            settled = self.run(stamp).state in FINAL_STATES
            if not settled:
                time.sleep(self.poll_interval)

    def wait(self, run: RunLike, timeout: float = 3600) -> Run:
        """Waits until the request is Finished and answers it; raises RunFailed (with its message) when it Failed."""
        deadline = time.monotonic() + timeout
        while True:
            record = self.run(run)
            if record.state == "Finished":
                return record
            if record.state == "Failed":
                raise RunFailed(record)
            if time.monotonic() > deadline:
                raise PortalError("The request is still %s after %g seconds." % (record.state, timeout), code="timeout")
            time.sleep(self.poll_interval)

    def download(self, run: RunLike, path: PathLike, timeout: float = 3600) -> str:
        """Saves the request's result (waiting for it first) to `path`, streamed to disk; answers the path. The file
        appears whole or not at all."""
        self.wait(run, timeout=timeout)
        _, url = self._status(run)
        if not url:
            raise NotFoundError("This request has no result to download.", status=404, code="not_found")
        target = os.fspath(path)
        part = target + ".part"

        def save(resp: Any) -> None:
            with open(part, "wb") as out:
                while True:
                    chunk = resp.read(CHUNK)
                    if not chunk:
                        return
                    out.write(chunk)

        # The link is signed; it needs no token (a storage service could refuse one).
        try:
            self._http.open(urllib.request.Request(self._http.url(url)), True, save)
            os.replace(part, target)
        finally:
            if os.path.exists(part):
                os.remove(part)
        return target

    # ---- the account's money and keys (a signed-in user; see Client.login) ----
    def billing(self) -> Billing:
        """The account's credit and balance."""
        answer = self._call("GET", "/api/client/billing/status", query={"client": self.client_id()})
        return _build(Billing, answer["billing"])

    def usage(self, days: int = 30) -> Usage:
        """The account's usage per day over the last `days` (1 to 400) days, with totals and the period's quotes."""
        answer = self._call("GET", "/api/client/usage", query={"client": self.client_id(), "days": days})
        return _build(Usage, {**answer["usage"], "quotes": answer.get("quote", {})})

    def quotes(self, days: int = 30) -> List[Quote]:
        """The account's shrink quotes of the last `days` (1 to 400) days, newest first (at most 200), each naming
        its project (`bucket`)."""
        return self.usage(days).quotes

    def integrations(self) -> List[Integration]:
        """The account's integration keys, with how many requests each served (`runs`) and when last (`runAt`)."""
        answer = self._call("GET", "/api/integration/apikey/item", query={"client": self.client_id()})
        return [_build(Integration, x) for x in answer["apikey"]["list"]]

    def __repr__(self) -> str:
        kind = "API key" if self.token.startswith(KEY_PREFIX) else "session"
        return "Client(base_url=%r, %s)" % (self.base_url, kind)
