"""The reference side of the differential harness, as a long-running process.

    REFDIR/venv/bin/python -W ignore scripts/differential/referenceDriver.py

Run with the Python of a reference built by ../shared/tools/reference-cdk/setup.sh (its venv puts the
CDK on the path). Reads one JSON request per line on stdin:

    {"manifest": {...}, "config": {...}, "stream": "name", "incremental": true,
     "limits": {"maxRecords": N, "maxPagesPerSlice": N, "maxSlices": N}, "now": "ISO", "state": []}

and answers one JSON line per request on stdout: the StreamRead of the Connector Builder's test read
(create_source + read_stream with a one-stream catalog), or {"__exception": "..."}. Everything the
CDK prints goes to stderr, so that a CONTROL message it prints is never taken for an answer.
"""
import datetime as _dt
import json
import os
import sys
import traceback

_answers = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
sys.stdout = sys.stderr

# The clock every request runs on: datetime.now()/utcnow() read it (set per request from "now").
_real_datetime = _dt.datetime
_frozen = [_real_datetime(2024, 3, 15, 12, 0, 0, tzinfo=_dt.timezone.utc)]


class _FrozenDatetime(_real_datetime):
    @classmethod
    def now(cls, tz=None):
        v = _frozen[0].astimezone(tz) if tz else _frozen[0].replace(tzinfo=None)
        return _real_datetime.__new__(cls, v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond, v.tzinfo)

    @classmethod
    def utcnow(cls):
        v = _frozen[0].astimezone(_dt.timezone.utc).replace(tzinfo=None)
        return _real_datetime.__new__(cls, v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond)


# Before the CDK is imported, so that its `from datetime import datetime` gets the frozen class.
_dt.datetime = _FrozenDatetime

import orjson  # noqa: E402
from dateutil import parser as _dateparser  # noqa: E402

from airbyte_cdk.connector_builder.connector_builder_handler import TestLimits, create_source, read_stream  # noqa: E402
from airbyte_cdk.models import (  # noqa: E402
    AirbyteMessageSerializer,
    AirbyteStateMessageSerializer,
    AirbyteStream,
    ConfiguredAirbyteCatalog,
    ConfiguredAirbyteStream,
    DestinationSyncMode,
    SyncMode,
    Type,
)


from airbyte_cdk.sources.declarative import concurrent_declarative_source as _cds  # noqa: E402

# Speed only, same outcomes: the component schema is parsed once, and a manifest's schema-validation
# outcome is remembered (every test read builds a new source, which would parse the schema YAML and
# validate the whole manifest again for each stream of the manifest).
_component_schema = _cds._get_declarative_component_schema()
_cds._get_declarative_component_schema = lambda: _component_schema
_validate = _cds.validate
_validated = {}


def _validate_once(instance, schema, *args, **kwargs):
    key = json.dumps(instance, sort_keys=True, default=str)
    if key not in _validated:
        try:
            _validate(instance, schema, *args, **kwargs)
            _validated[key] = None
        except Exception as e:  # re-raised as is for every later read of the same manifest
            _validated[key] = e
        if len(_validated) > 64:
            _validated.pop(next(iter(_validated)))
    if _validated[key] is not None:
        raise _validated[key]


_cds.validate = _validate_once

# Speed only, same outcomes: the job orchestrator waits 5 s between two status polls of an AsyncRetriever
# job; the harness's API answers "running" then "completed" by poll count, not by time (our side's sleep
# is a no-op too), so the wait is dropped.
from airbyte_cdk.sources.declarative.async_job.job_orchestrator import AsyncJobOrchestrator  # noqa: E402

AsyncJobOrchestrator._WAIT_TIME_BETWEEN_STATUS_UPDATE_IN_SECONDS = 0


def _answer(obj_bytes):
    _answers.write(obj_bytes + "\n")
    _answers.flush()


def _read(request):
    now = _dateparser.isoparse(request.get("now") or "2024-03-15T12:00:00Z")
    _frozen[0] = now if now.tzinfo else now.replace(tzinfo=_dt.timezone.utc)
    lim = request.get("limits") or {}
    max_records = int(lim.get("maxRecords", 100))
    max_pages = int(lim.get("maxPagesPerSlice", 5))
    max_slices = int(lim.get("maxSlices", 5))
    config = dict(request.get("config") or {})
    config["__injected_declarative_manifest"] = request["manifest"]
    config["__command"] = "test_read"
    config["__test_read_config"] = {"max_records": max_records, "max_pages_per_slice": max_pages, "max_slices": max_slices}
    limits = TestLimits(max_records=max_records, max_pages_per_slice=max_pages, max_slices=max_slices)
    state = [AirbyteStateMessageSerializer.load(s) for s in (request.get("state") or [])]
    mode = SyncMode.incremental if request.get("incremental", True) else SyncMode.full_refresh
    catalog = ConfiguredAirbyteCatalog(
        streams=[
            ConfiguredAirbyteStream(
                stream=AirbyteStream(name=request["stream"], json_schema={}, supported_sync_modes=[SyncMode.full_refresh, SyncMode.incremental]),
                sync_mode=mode,
                destination_sync_mode=DestinationSyncMode.overwrite,
            )
        ]
    )
    source = create_source(config=config, limits=limits, catalog=catalog, state=state)
    msg = read_stream(source, config, catalog, state, limits)
    if msg.type == Type.RECORD:
        return orjson.dumps(msg.record.data, option=orjson.OPT_NON_STR_KEYS, default=str).decode()
    trace = AirbyteMessageSerializer.dump(msg).get("trace")
    return json.dumps({"__exception": (trace or {}).get("error", {}).get("message"), "trace": trace}, default=str)


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            _answer(_read(json.loads(line)))
        except Exception as e:  # create_source failing (schema validation, a bad config, ...)
            _answer(json.dumps({"__exception": f"{type(e).__name__}: {e}", "stack": traceback.format_exc()[-3000:]}, default=str))


if __name__ == "__main__":
    main()
