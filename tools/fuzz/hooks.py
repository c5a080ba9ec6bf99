"""Schemathesis hooks for qrelay's fuzz run (tools/fuzz/run-schemathesis.sh loads this file).

`POST /api/v1/batches` takes the import file itself as `application/x-ndjson`, a media type
Schemathesis has no serializer for: its generated bodies (strings, as the document says) are
sent as they are, like a `text/plain` body.
"""

import schemathesis

schemathesis.serializer.alias("application/x-ndjson", "text/plain")
