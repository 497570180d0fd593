"""Errors of the portal client: one class per kind of failure, all subclasses of PortalError.

Catch PortalError for every failure, or a subclass to treat one kind (a bad token, a missing run, a rate limit)
on its own. The message is the server's sentence, which says what to fix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # pragma: no cover
    from .models import Run, Upload

__all__ = [
    "PortalError",
    "AuthError",
    "NotFoundError",
    "ValidationError",
    "ConflictError",
    "RateLimitError",
    "ServerError",
    "NetworkError",
    "RunFailed",
    "UploadFailed",
]


class PortalError(Exception):
    """Any failure of the portal client. `status` is the HTTP status (None when no answer came), `code` the API's
    error code (e.g. "not_found", "network", "timeout")."""

    def __init__(self, message: str, status: Optional[int] = None, code: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code


class AuthError(PortalError):
    """The token was refused (401) or may not do this (403): a wrong, removed or expired token, another account's
    data, or a call an API key may not make."""


class NotFoundError(PortalError):
    """The thing asked for does not exist or was removed (404)."""


class ValidationError(PortalError):
    """The input was refused (400, 413): the message is the rule's sentence, e.g. 'Please enter the title between 1
    and 60 characters long'."""


class ConflictError(PortalError):
    """The thing is not in a state that allows this (409), e.g. reusing a model that has not finished."""


class RateLimitError(PortalError):
    """Too many calls (429). `retry_after` is how many seconds the server asks to wait (None when it did not say)."""

    def __init__(
        self, message: str, status: Optional[int] = 429, code: Optional[str] = None, retry_after: Optional[float] = None
    ) -> None:
        super().__init__(message, status=status, code=code)
        self.retry_after = retry_after


class ServerError(PortalError):
    """The server failed (5xx), after the client's retries."""


class NetworkError(PortalError):
    """No answer: the server could not be reached (code "network") or did not answer in time (code "timeout")."""


class RunFailed(PortalError):
    """A request (run) ended Failed; `run` is its record and the message is the run's message."""

    def __init__(self, run: Run) -> None:
        super().__init__(run.message or "The request %s failed." % run.stamp, code="run_failed")
        self.run = run


class UploadFailed(PortalError):
    """An upload ended Failed (its files could not be read); `upload` is its record and the message is the
    analysis sentence of each failed file, e.g. 'Row 2 has 2 values; expected 4.'"""

    def __init__(self, message: str, upload: Upload) -> None:
        super().__init__(message, code="upload_failed")
        self.upload = upload
