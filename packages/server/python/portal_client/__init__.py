"""The portal's Python SDK: projects, uploads of real files, models, fit and generate requests with their events,
results, quotes, billing and usage, as typed objects. Standard library only (tqdm shows upload bars when installed).

    from portal_client import Client

    client = Client(token="pk_...", base_url="http://localhost:8080")   # or PORTAL_TOKEN / PORTAL_API
    project = client.project("My first project")                        # found by name, or created
    upload = client.upload(project, "data.json")
    run = client.fit(project, upload, inputs=3, outputs=5, wait=True)
    client.download(run, "embeddings.json")

See README.md (the package's description) for a tour and one section per flow.
"""

from .client import Client, Pages, ProgressFn
from .errors import (
    AuthError,
    ConflictError,
    NetworkError,
    NotFoundError,
    PortalError,
    RateLimitError,
    RunFailed,
    ServerError,
    UploadFailed,
    ValidationError,
)
from .models import (
    Account,
    Billing,
    Box,
    Event,
    Integration,
    Item,
    Model,
    Project,
    Quote,
    Run,
    Upload,
    UploadFile,
    UploadMeta,
    UploadRef,
    Usage,
    UsageDay,
    UsageTotals,
)

__all__ = [
    "Client",
    "Pages",
    "ProgressFn",
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
    "Account",
    "Project",
    "Upload",
    "Item",
    "UploadFile",
    "UploadMeta",
    "UploadRef",
    "Box",
    "Run",
    "Event",
    "Model",
    "Quote",
    "Billing",
    "Usage",
    "UsageDay",
    "UsageTotals",
    "Integration",
]
__version__ = "0.2.0"
