"""The portal API client: one method per step of SPEC section 4's flows, over urllib."""

import hashlib
import json
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request

FINAL_STATES = ("Finished", "Failed")
DEFAULT_API = "http://localhost:8080"
# The same network behaviour as the `portal` CLI: a call with no answer after this many seconds fails (PORTAL_TIMEOUT),
# and reads (GET) are tried again after these waits when the server cannot be reached or answers 502, 503 or 504.
DEFAULT_TIMEOUT = 30.0
RETRY_DELAYS = (0.3, 0.9)
RETRYABLE = (502, 503, 504)


class PortalError(Exception):
    """A failed call or a request that ended Failed; the message is the server's sentence."""

    def __init__(self, message, status=None, code=None):
        super().__init__(message)
        self.status = status
        self.code = code


def _stamp(value):
    """Accepts an id or an entity dict (as returned by the list methods)."""
    if isinstance(value, dict):
        return value.get("stamp") or value.get("clue")
    return value


class Client:
    """Talks to the portal API with a client API key's token (or a session token).

    token defaults to the PORTAL_TOKEN environment variable, base_url to PORTAL_API, client (the account id)
    to PORTAL_CLIENT, else the token's own account as the server reports it.
    """

    def __init__(self, token=None, base_url=None, client=None, timeout=None, poll_interval=1.0, api=None):
        self.token = token or os.environ.get("PORTAL_TOKEN")
        if not self.token:
            raise PortalError("No token: pass Client(token=...) or set PORTAL_TOKEN.")
        # `api` is accepted as another name for base_url (the CLI calls the API base --api).
        self.base_url = (base_url or api or os.environ.get("PORTAL_API") or DEFAULT_API).rstrip("/")
        if timeout is None:
            raw = os.environ.get("PORTAL_TIMEOUT")
            try:
                timeout = float(raw) if raw else DEFAULT_TIMEOUT
            except ValueError:
                raise PortalError("PORTAL_TIMEOUT must be a number of seconds, got %r." % raw) from None
        # 0 waits forever, as in the CLI.
        self.timeout = timeout or None
        self.poll_interval = poll_interval
        self._client = client or os.environ.get("PORTAL_CLIENT")

    # ---- HTTP ----
    def _url(self, path):
        return path if path.startswith(("http://", "https://")) else self.base_url + path

    def _origin(self):
        parts = urllib.parse.urlsplit(self.base_url)
        return "%s://%s" % (parts.scheme, parts.netloc)

    def _call(self, method, path, body=None, query=None):
        url = self._url(path)
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None
        headers = {"Authorization": "Bearer " + self.token, "Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            again = method == "GET" and attempt < len(RETRY_DELAYS)
            req = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    raw = resp.read()
                break
            except urllib.error.HTTPError as err:
                if again and err.code in RETRYABLE:
                    time.sleep(RETRY_DELAYS[attempt])
                    attempt += 1
                    continue
                raise self._error(err) from None
            except (socket.timeout, TimeoutError):
                # A timed-out call is not repeated: the limit is the caller's bound on waiting.
                raise self._timed_out() from None
            except urllib.error.URLError as err:
                if isinstance(err.reason, (socket.timeout, TimeoutError)):
                    raise self._timed_out() from None
                if again:
                    time.sleep(RETRY_DELAYS[attempt])
                    attempt += 1
                    continue
                reason = err.reason.strerror if isinstance(err.reason, OSError) and err.reason.strerror else err.reason
                raise PortalError(
                    "Cannot reach %s (%s). Check the API address and your network, then try again." % (self._origin(), str(reason).lower()),
                    code="network",
                ) from None
        result = json.loads(raw.decode("utf-8")) if raw else {}
        if isinstance(result, dict) and isinstance(result.get("token"), str):
            # Any response may carry a fresh token; it replaces the one in use.
            self.token = result["token"]
        return result

    def _timed_out(self):
        seconds = ("%g" % self.timeout) if self.timeout else "?"
        return PortalError(
            "No answer from %s: timed out after %s s. Try again, or allow longer with timeout= or PORTAL_TIMEOUT." % (self._origin(), seconds),
            code="timeout",
        )

    @staticmethod
    def _error(err):
        message = "HTTP %d" % err.code
        code = None
        try:
            body = json.loads(err.read().decode("utf-8"))
            message = body["error"]["message"]
            code = body["error"].get("code")
        except Exception:
            # Not the API's error body (a proxy's page): the status says what happened.
            code = None
        if err.code >= 500:
            message = "Server error %d%s. Try again later." % (err.code, "" if message == "HTTP %d" % err.code else ": " + message)
        return PortalError(message, status=err.code, code=code)

    # ---- reading ----
    def client_id(self):
        """The client (account) the token works for: the one given, else the first permission."""
        if self._client:
            return self._client
        try:
            perms = self._call("GET", "/api/user/permission")
        except PortalError as err:
            # A wrong or removed key is refused as such ('Invalid API key'): say that, not that the account is unknown.
            if err.status == 403:
                raise PortalError(
                    "The server did not say which account this token belongs to (%s); "
                    "pass Client(client=...) or set PORTAL_CLIENT." % err,
                    status=err.status,
                    code=err.code,
                ) from None
            raise
        if isinstance(perms, dict):
            perms = perms.get("permission", {}).get("list", [])
        if not perms:
            raise PortalError("This token has no account.")
        self._client = perms[0]["client"]["stamp"]
        return self._client

    def projects(self):
        """Active projects of the client, as dicts (stamp, name, runs, rends, createdAt)."""
        res = self._call("GET", "/api/bucket/item", query={"active": 1, "client": self.client_id()})
        return res["bucket"]["list"]

    def create_project(self, name):
        """Creates a project in the client; returns it as a dict (stamp, name, ...)."""
        res = self._call("PUT", "/api/bucket/item", {"client": self.client_id(), "name": name})
        return res["bucket"]

    def rename_project(self, project, name):
        """Renames a project of the client; returns it as a dict."""
        return self._call("POST", "/api/bucket/name", {"bucket": _stamp(project), "name": name})["bucket"]

    def project(self, name="My project"):
        """The client's project with this name, created when there is none (a fresh account has no project)."""
        for p in self.projects():
            if p["name"] == name:
                return p
        return self.create_project(name)

    def uploads(self, project):
        """Active uploads of a project, as dicts (stamp, name, flight, upload list, ...)."""
        res = self._call("GET", "/api/rend/item", query={"active": 1, "bucket": _stamp(project)})
        return res["rend"]["list"]

    def run(self, run):
        """The run record and its result link: (record dict, url or None)."""
        res = self._call("GET", "/api/run/status", query={"run": _stamp(run)})
        return res["run"]["record"], res["run"].get("url")

    # ---- uploading ----
    def upload(self, project, path, name=None, wait=True, timeout=600):
        """Uploads one file as a new upload of the project; returns the upload's id once Ready."""
        project = _stamp(project)
        file_name = os.path.basename(path)
        with open(path, "rb") as fh:
            data = fh.read()
        checksum = hashlib.sha256(data).hexdigest()
        rend = self._call("PUT", "/api/rend/item", {"bucket": project, "name": (name or file_name)[:60]})["rend"]["stamp"]
        item = self._call(
            "PUT",
            "/api/upload/item",
            {"rend": rend, "name": file_name, "file": {"checksum": checksum, "name": file_name, "size": len(data)}},
        )["upload"]
        put = urllib.request.Request(
            self._url(item["url"]), data=data, method="PUT", headers={"Content-Type": "application/octet-stream"}
        )
        try:
            with urllib.request.urlopen(put, timeout=self.timeout) as resp:
                resp.read()
        except urllib.error.HTTPError as err:
            raise self._error(err) from None
        self._call("POST", "/api/upload/finish", {"upload": item["stamp"]})
        self._call("POST", "/api/rend/finish", {"rend": rend})
        if wait:
            self.wait_upload(project, rend, timeout=timeout)
        return rend

    def wait_upload(self, project, upload, timeout=600):
        """Waits until the upload is Ready; raises PortalError with the analysis error when it Failed."""
        upload = _stamp(upload)
        deadline = time.monotonic() + timeout
        while True:
            rend = next((r for r in self.uploads(project) if r["stamp"] == upload), None)
            if rend is None:
                raise PortalError("Upload %s not found." % upload)
            if rend["flight"] == "Ready":
                return rend
            if rend["flight"] == "Failed":
                errors = [i["meta"].get("error") or i.get("error") for i in rend["upload"]["list"]]
                raise PortalError("; ".join(e for e in errors if e) or "The upload failed.")
            if time.monotonic() > deadline:
                raise PortalError("The upload is still %s after %d seconds." % (rend["flight"], timeout))
            time.sleep(self.poll_interval)

    # ---- requests ----
    def fit(self, project, upload, inputs, outputs, target=1, task="regression", explainability=False, name=None):
        """Creates a fit request (pile, fit run, generate run); returns the generate run's id."""
        project, upload = _stamp(project), _stamp(upload)
        param = {
            "explainability": bool(explainability),
            "input_column_size": int(inputs),
            "output_column_size": int(outputs),
            "task_target_size": int(target),
            "task": task,
        }
        pile = self._call("PUT", "/api/pile/item", {"bucket": project, "variety": "FitModel", "param": param})["pile"]["stamp"]
        title = (name or "Fit from Python")[:60]
        fit = self._call(
            "PUT", "/api/run/item/generate", {"bucket": project, "function": "fit", "rend": upload, "pile": pile, "name": title}
        )["run"]["stamp"]
        generate = self._call(
            "PUT", "/api/run/item/generate", {"bucket": project, "function": "generate", "rend": upload, "fit": fit, "name": title}
        )["run"]["stamp"]
        return generate

    def wait(self, run, timeout=3600):
        """Waits until the run is Finished (returns its record) or Failed (raises with its message)."""
        deadline = time.monotonic() + timeout
        while True:
            record, _ = self.run(run)
            if record["state"] == "Finished":
                return record
            if record["state"] == "Failed":
                raise PortalError(record.get("message") or "The request failed.")
            if time.monotonic() > deadline:
                raise PortalError("The request is still %s after %d seconds." % (record["state"], timeout))
            time.sleep(self.poll_interval)

    def download(self, run, path):
        """Saves the run's result to path (waiting for it first); returns the path."""
        self.wait(run)
        _, url = self.run(run)
        if not url:
            raise PortalError("This request has no result to download.")
        # The link is signed; it needs no token (a storage service could reject one).
        with urllib.request.urlopen(self._url(url), timeout=self.timeout) as resp, open(path, "wb") as out:
            while True:
                chunk = resp.read(1 << 16)
                if not chunk:
                    break
                out.write(chunk)
        return path
