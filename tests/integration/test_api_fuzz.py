"""Fuzzing the JSON API from its own OpenAPI document: whatever the parameters, no 5xx, and answers as documented.

schemathesis generates requests for every operation in /api/openapi.json (valid and invalid
parameters alike) and sends them through the WSGI application itself, in this thread, over the
Canada Job Grant data set. Every response must not be a server error, must carry the documented
content type and a body matching the documented schema, and must refuse invalid input with a 4xx.
A status the document does not list is accepted only as an error in the API's convention
(API.md: a 4xx with a JSON {"detail": "..."}); a separate test checks that every operation with
parameters documents its 422.
"""

import json
import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from grants.selectors import forget_reference_data
from tests.dataset import load_cjg
from tests.profiles import examples

# The same examples on every run by default; FUZZ_EXAMPLES=N draws N fresh ones per operation instead.
HUNT = int(os.environ.get("FUZZ_EXAMPLES", "0"))

# Serving the document reads no table, so it can be loaded while pytest collects the tests.
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)


def documented_status_or_error_convention(ctx, response, case):
    """A documented status, or else a 4xx whose body is the API's error: {"detail": "a sentence"}."""
    status = response.status_code
    if not 400 <= status < 500:
        return status_code_conformance(ctx, response, case)
    documented = {str(code) for code in case.operation.responses.status_codes}
    if str(status) in documented or "default" in documented or f"{str(status)[0]}XX" in documented:
        return None
    try:
        body = response.json()
    except ValueError:
        body = None
    assert isinstance(body, dict) and isinstance(body.get("detail"), str) and body["detail"].strip(), (
        f"An undocumented {status} must at least be the API's error, JSON {{\"detail\": \"...\"}}; "
        f"got {response.text[:200]!r}"
    )
    return None


CHECKS = [
    not_a_server_error,
    documented_status_or_error_convention,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


@pytest.fixture
def cjg_data(db):
    """The Canada Job Grant data set, read by the application on this test's connection."""
    forget_reference_data()
    load_cjg()
    # The WSGI app runs in this thread, on the test's connection, inside the test's transaction
    # (so the data set is rolled back after). Django closes "old" connections around each request,
    # which would end that transaction; the test client disconnects the same handlers for the same reason.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
    forget_reference_data()


@schema.parametrize()
@settings(max_examples=HUNT or examples(30), deadline=None, suppress_health_check=list(HealthCheck), derandomize=not HUNT)
def test_operation_answers_without_server_error_and_as_documented(case, cjg_data):
    case.call_and_validate(checks=CHECKS)


def test_every_operation_with_parameters_documents_its_422():
    document = json.loads(Client().get("/api/openapi.json").content)
    missing = sorted(
        f"{method.upper()} {path}"
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if any(p["in"] == "query" for p in operation.get("parameters", []))
        and "422" not in operation["responses"]
    )
    assert missing == []
