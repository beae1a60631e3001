"""The one TLS context gm uses for IMAP and SMTP."""

from __future__ import annotations

import ssl

from gm.core.config import ServerConfig


def tls_context(server: ServerConfig) -> ssl.SSLContext:
    """The system's defaults; ``tls_verify: false`` (a test server only) skips the certificate check."""
    context = ssl.create_default_context()
    if not server.tls_verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context
