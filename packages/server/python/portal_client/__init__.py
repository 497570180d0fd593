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

from . import errors, models, see, webhooks
from .client import Client, Pages, ProgressFn
from .errors import *  # noqa: F401,F403 (the names of errors.__all__)
from .models import *  # noqa: F401,F403 (the names of models.__all__)
from .see import *  # noqa: F401,F403 (the names of see.__all__)
from .webhooks import *  # noqa: F401,F403 (the names of webhooks.__all__)

__all__ = ["Client", "Pages", "ProgressFn"]
__all__ += errors.__all__
__all__ += models.__all__
__all__ += see.__all__
__all__ += webhooks.__all__

#: `client.preview(upload)` and `client.projection(run)` live in their own module (see.py).
Client.preview = see.preview  # type: ignore[attr-defined]
Client.projection = see.projection  # type: ignore[attr-defined]
#: Managing webhook endpoints (webhooks.py): client.webhooks(), client.create_webhook(url, events), ...
for _method in webhooks.CLIENT_METHODS:
    setattr(Client, _method.__name__, _method)
__version__ = "0.2.0"
