"""Writes the Schemathesis config of qrelay's fuzz run: the ids a running qrelay knows.

Random batch names, worker ids and assignment ids mostly reach a 404, never the code behind
it. This asks the API for the batches it holds and, with the token, their workers and
assignments, and binds them to the parameters of those names (half of the generated
values; the other half stay random). Usage: known-ids.py BASE_URL TOKEN OUT_TOML
"""

import json
import sys
import urllib.error
import urllib.parse
import urllib.request


def get(base: str, path: str, token: str) -> object:
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.load(response)
    except urllib.error.HTTPError as err:
        raise SystemExit(f"known-ids.py: GET {base + path} answered {err.code}: is the token QRELAY_API_TOKEN of this server?")
    except urllib.error.URLError as err:
        raise SystemExit(f"known-ids.py: {base + path} does not answer ({err.reason}): start qrelay first (npm start)")


def toml_list(values: list[str]) -> str:
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit("usage: known-ids.py BASE_URL TOKEN OUT_TOML")
    base, token, out = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    batches = [b["batch"] for b in get(base, "/api/v1/batches", token)]
    workers: set[str] = set()
    assignments: set[str] = set()
    for batch in batches:
        for vote in get(base, f"/api/v1/batches/{urllib.parse.quote(batch)}/votes", token):
            workers.add(vote["worker"])
            assignments.add(vote["assignmentId"])
    if not batches or not workers:
        raise SystemExit(
            "known-ids.py: the server holds no batch with votes: run the demo first (npm start on an empty data directory)"
        )
    bind = lambda name: f'{{ dictionary = "{name}", probability = 0.5 }}'  # noqa: E731
    lines = [
        "# written by tools/fuzz/known-ids.py: the ids this qrelay knows",
        "[dictionaries]",
        f"batches = {{ values = {toml_list(sorted(batches))} }}",
        f"workers = {{ values = {toml_list(sorted(workers)[:50])} }}",
        f"assignments = {{ values = {toml_list(sorted(assignments)[:50])} }}",
        "",
        "[parameters]",
        f'"path.batch" = {bind("batches")}',
        f'"query.batch" = {bind("batches")}',
        f'"body.batch" = {bind("batches")}',
        f'"path.worker" = {bind("workers")}',
        f'"body.workerIds[*]" = {bind("workers")}',
        f'"path.assignment" = {bind("assignments")}',
        f'"body.assignmentId" = {bind("assignments")}',
    ]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"known ids: {len(batches)} batches, {len(workers)} workers, {len(assignments)} assignments")


main()
