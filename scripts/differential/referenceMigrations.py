"""The reference CDK's own manifest migrations on manifests, for test/fixtures/reference-migrations.json.

    REFDIR/venv/bin/python -W ignore scripts/differential/referenceMigrations.py MANIFEST.yaml ...

Run with the Python of a reference built by ../shared/tools/reference-cdk/setup.sh. For each manifest it
does what ConcurrentDeclarativeSource does with `__should_migrate`: resolve references, propagate types
and parameters, then ManifestMigrationHandler.apply_migrations(). Prints one JSON object: per manifest,
per stream, the fields of its retriever's requester that the migrations touch, before and after.
"""
import json
import sys

import yaml

from airbyte_cdk.manifest_migrations.migration_handler import ManifestMigrationHandler
from airbyte_cdk.sources.declarative.parsers.manifest_component_transformer import ManifestComponentTransformer
from airbyte_cdk.sources.declarative.parsers.manifest_reference_resolver import ManifestReferenceResolver

FIELDS = ("url", "url_base", "path", "request_body", "request_body_json", "request_body_data")


def requesters(manifest):
    out = {}
    for stream in manifest.get("streams", []) or []:
        if not isinstance(stream, dict):
            continue
        requester = (stream.get("retriever") or {}).get("requester") or {}
        if isinstance(requester, dict) and requester.get("type") == "HttpRequester":
            out[str(stream.get("name"))] = {k: requester[k] for k in FIELDS if k in requester}
    return out


def main(paths):
    result = {}
    for path in paths:
        with open(path) as f:
            manifest = yaml.safe_load(f)
        manifest.setdefault("type", "DeclarativeSource")
        resolved = ManifestReferenceResolver().preprocess_manifest(manifest)
        propagated = ManifestComponentTransformer().propagate_types_and_parameters("", resolved, {})
        before = requesters(propagated)
        migrated = ManifestMigrationHandler(propagated).apply_migrations()
        result[path.rsplit("/", 1)[-1]] = {"before": before, "after": requesters(migrated)}
    print(json.dumps(result, indent=1, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
