"""What the bot sent the fake Discord, checked against Discord's own API description.

``/work/shared/discord/openapi.json`` (or ``TEAHOUSE_DISCORD_OPENAPI``) is Discord's published OpenAPI 3.1
description of its HTTP API v10 (discord/discord-api-spec, MIT). Each request the fake recorded
(``fake.requests``) is matched to its operation by method and path template, and its JSON body (a multipart
request's ``payload_json``) validated against that operation's request schema, with a registry that holds
the whole document so the ``#/components/schemas/...`` references resolve.

Two readings, as the description's README asks: discord.py sends some snowflakes as JSON numbers, which
Discord accepts while the description says strings, so an integer is read as its text; and for an ``anyOf``
union the best-matching branch's error is reported, not the union's.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

SPEC = Path(os.getenv("TEAHOUSE_DISCORD_OPENAPI", "/work/shared/discord/openapi.json"))
API = "/api/v10"


@functools.cache
def _spec():
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    assert SPEC.exists(), f"Discord's OpenAPI description is not at {SPEC} (set TEAHOUSE_DISCORD_OPENAPI)"
    doc = _discriminated(json.loads(SPEC.read_text(encoding="utf-8")))
    registry = Registry().with_resource("urn:discord", Resource(doc, specification=DRAFT202012))
    operations = []
    for template, ops in doc["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
        for method, op in ops.items():
            if not isinstance(op, dict) or "requestBody" not in op:
                continue
            content = op["requestBody"].get("content", {})
            kind = "application/json" if "application/json" in content else next(iter(content), None)
            if kind is None or "schema" not in content[kind]:
                continue
            pointer = "/".join(_escape(p) for p in ("paths", template, method, "requestBody", "content", kind,
                                                     "schema"))
            validator = Draft202012Validator({"$ref": f"urn:discord#/{pointer}"}, registry=registry)
            operations.append((method.upper(), pattern, template, validator))
    # the fixed paths first (…/messages/@original before …/messages/{message_id})
    operations.sort(key=lambda o: o[2].count("{"))
    return operations


def _discriminated(doc: dict) -> dict:
    """``doc`` with each union of components told apart by their ``type`` (a ``oneOf`` or ``anyOf`` whose
    branches each require a ``type`` of one value of its own, as every message component does) checked against
    the branch its ``type`` names, rather than against every branch: the same verdict — no instance can match
    two such branches — and its reasons from the one branch that applies, at a small part of the time (a card's
    dozens of components each tried against seven kinds took 40-75 ms a message)."""
    schemas = doc["components"]["schemas"]

    def kind(branch):
        ref = branch.get("$ref", "") if isinstance(branch, dict) and len(branch) == 1 else ""
        target = schemas.get(ref.removeprefix("#/components/schemas/")) if ref.startswith("#/components/") else None
        values = ((target or {}).get("properties", {}).get("type") or {}).get("enum") or []
        return values[0] if target and len(values) == 1 and "type" in target.get("required", []) else None

    def visit(node):
        if isinstance(node, list):
            return [visit(n) for n in node]
        if not isinstance(node, dict):
            return node
        node = {k: visit(v) for k, v in node.items()}
        for key in ("oneOf", "anyOf"):
            kinds = [kind(b) for b in node.get(key, [])]
            if kinds and None not in kinds and len(set(kinds)) == len(kinds):
                branches = node.pop(key)
                node["allOf"] = node.get("allOf", []) + [
                    {"type": "object", "required": ["type"], "properties": {"type": {"enum": kinds}}}] + [
                    {"if": {"properties": {"type": {"const": k}}, "required": ["type"]}, "then": b}
                    for k, b in zip(kinds, branches, strict=True)]
        return node
    return visit(doc)


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


SNOWFLAKE_LISTS = ("users", "roles")


def _as_text(value, key: str = ""):
    """Snowflakes discord.py sends as numbers (an ``id``, a ``…_id``, the ids of ``allowed_mentions``) read
    as their text; everything else as it is."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and (key == "id" or key.endswith("_id") or key in SNOWFLAKE_LISTS):
        return str(value)
    if isinstance(value, list):
        return [_as_text(v, key if key in SNOWFLAKE_LISTS else "") for v in value]
    if isinstance(value, dict):
        return {k: _as_text(v, k) for k, v in value.items()}
    return value


def _problem(validator, body) -> str | None:
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(body))
    while error is not None and error.context:      # a union: the branch that came closest
        branches: dict = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        # the branch whose discriminating ``type`` matched, else the one with the fewest errors
        chosen = min(branches.values(), key=lambda es: (any(list(e.relative_path) == ["type"] for e in es), len(es)))
        error = best_match(chosen)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(body)"
    return f"{where}: {error.message[:300]}"


def problem(method: str, path: str, body) -> tuple[bool, str | None]:
    """(whether the request has a body Discord checks, what is wrong with it: None when nothing). Bodies already
    judged are remembered by their text (every bot start syncs the same commands)."""
    if not path.startswith(API) or body in (None, {}) and method in ("GET", "DELETE"):
        return False, None
    path = path[len(API):]
    op = next((o for o in _spec() if o[0] == method and o[1].match(path)), None)
    if op is None:
        return False, None
    _method, _pattern, template, validator = op
    key = (template, method, json.dumps(body, sort_keys=True, default=str))
    if key not in _JUDGED:
        if len(_JUDGED) > 2048:
            _JUDGED.clear()
        found = _problem(validator, _as_text(body if body is not None else {}))
        _JUDGED[key] = None if found is None else f"{method} {template}: {found}"
    return True, _JUDGED[key]


_JUDGED: dict[tuple, str | None] = {}


def check(requests) -> tuple[int, list[str]]:
    """(how many requests had a body checked, the problems found: one line each)."""
    checked, problems = 0, []
    for r in requests:
        judged, found = problem(r.method, r.path, r.json)
        checked += judged
        if found is not None:
            problems.append(found)
    return checked, problems
