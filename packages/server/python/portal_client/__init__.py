"""Python client of the portal's API: list projects, upload files, fit, generate and download results.

Standard library only. See README.md beside the package source for an example.
"""

from .client import Client, PortalError

__all__ = ["Client", "PortalError"]
__version__ = "0.1.0"
