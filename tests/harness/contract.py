"""Discord's own contract: every request the harness captures, checked against Discord's
published OpenAPI 3.1 document (a copy in `discord_spec/`, where it came from in its README).

The spec's request schemas leave objects open and write a body that can take several shapes as
a bare `oneOf`/`anyOf`, so as published a misspelt key passes and an error in a component
names the whole message. The copy is therefore read once and tightened before use:

- every object schema with `properties` is closed (`additionalProperties: false`, or
  `unevaluatedProperties: false` where it is also composed), so a key the spec does not list
  is an error at its own JSON path;
- a union whose shapes each carry a required `type`-like property with fixed values (an
  interaction callback, a component, a command option) becomes "if that property says X,
  then shape X": the error is the field's, not "not valid under any of the given schemas";
- a nullable union (`oneOf: [null, X]`) becomes "null, else X", for the same reason;
- `DEVIATIONS` allow exactly what Discord accepts beyond its spec, each saying why.

`check(call)` finds the operation by method and concrete path (the most literal template
first: `/users/@me` before `/users/{user_id}`), checks the path and query parameters and the
JSON body (a multipart request's `payload_json`) against the operation's `application/json`
schema, and returns every `Violation`. A validator is built once per operation per process.
`tests/conftest.py` runs it on every call after every phase of every test.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from tests.harness.transport import Call

SPEC_FILE = Path(__file__).with_name("discord_spec") / "openapi.json"
SPEC_URI = "urn:discord-api-spec"
API_PREFIX = "/api/v10"
METHODS = ("get", "put", "post", "patch", "delete")
COMPOSITIONS = ("allOf", "anyOf", "oneOf", "$ref", "if")
#: The keyword a tightened union carries (see `_pick`).
DISCRIMINATOR = "x-discriminator"


@dataclass(frozen=True)
class Deviation:
    """Something Discord accepts that its spec does not say: a patch to one schema."""

    schema: str  # a name under components/schemas
    why: str
    patch: Callable[[dict[str, Any]], None]


def _snowflake_as_number(schema: dict[str, Any]) -> None:
    schema.pop("type", None)
    schema.pop("pattern", None)
    schema["anyOf"] = [
        {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
        {"type": "integer", "minimum": 0},
    ]


def _add_property(name: str, spec: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def patch(schema: dict[str, Any]) -> None:
        schema["properties"][name] = spec

    return patch


#: What Discord accepts beyond its spec, allowed exactly (and nothing else).
DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        "SnowflakeType",
        "discord.py sends some ids as JSON numbers (an attachment's id in `attachments`, the "
        "ids of `allowed_mentions`); Discord parses a snowflake from a string or a number",
        _snowflake_as_number,
    ),
    *(
        Deviation(
            name,
            "discord.py's handle_message_parameters writes `tts` (false) into every message "
            "body, edits included; Discord ignores it where a message is not created. Only "
            "false is allowed here",
            _add_property("tts", {"enum": [False, None]}),
        )
        for name in (
            "MessageEditRequestPartial",
            "IncomingWebhookUpdateRequestPartial",
            "IncomingWebhookUpdateForInteractionCallbackRequestPartial",
        )
    ),
    Deviation(
        "RichEmbed",
        "discord.py's Embed.to_dict() always writes `flags` (0) since 2.4; Discord ignores it "
        "in a request",
        _add_property("flags", {"type": ["integer", "null"], "minimum": 0}),
    ),
    Deviation(
        "ApplicationCommandUpdateRequest",
        "discord.py writes `nsfw` on every command (age-restricted commands); Discord "
        "accepts it in the bulk update though the spec lists it only on the response",
        _add_property("nsfw", {"type": ["boolean", "null"]}),
    ),
)

#: Query strings carry text: how a value is read as the schema's type. discord.py sends
#: booleans as 1 and 0 (`with_response=1` on a callback, `wait=1` and `with_components=0`
#: on a followup), which Discord reads as true and false.
_BOOLEANS = {"true": True, "false": False, "1": True, "0": False}


@dataclass(frozen=True)
class Violation:
    """One difference between a request and the spec."""

    method: str
    route: str  # the spec's path template
    where: str  # "route", "path", "query" or "body"
    at: str  # JSON path in the body ("$.data.components[0]..."), or the parameter's name
    message: str

    def __str__(self) -> str:
        return f"{self.method} {self.route}: {self.where} {self.at}: {self.message}"


@dataclass
class Operation:
    """One operation of the spec: where its parameters' and body's schemas are."""

    method: str
    template: str
    pattern: re.Pattern[str]
    literal_segments: int
    pointer: str  # JSON pointer of the operation in the document
    path_params: dict[str, str]  # name -> JSON pointer of its schema
    query_params: dict[str, tuple[str, dict[str, Any]]]  # name -> (pointer, schema)
    has_body: bool
    body_required: bool


class DiscordSpec:
    """The tightened spec: operations by method and path, a validator per operation."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = tighten(document)
        self.registry: Registry[Any] = Registry().with_resource(
            SPEC_URI, DRAFT202012.create_resource(self.document)
        )
        self._validators: dict[str, Draft202012Validator] = {}
        self._seen: dict[tuple[str, bytes], list[tuple[str, str]]] = {}
        self.operations = sorted(
            self._operations(), key=lambda op: (-op.literal_segments, op.template)
        )

    @classmethod
    @cache
    def load(cls) -> DiscordSpec:
        """The copy in `discord_spec/`, read and tightened once per process."""
        return cls(json.loads(SPEC_FILE.read_text(encoding="utf-8")))

    def _operations(self) -> Iterator[Operation]:
        for template, item in self.document["paths"].items():
            base = f"/paths/{_escape(template)}"
            shared = [
                (f"{base}/parameters/{i}", p) for i, p in enumerate(item.get("parameters", []))
            ]
            regex = re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(template))
            segments = template.strip("/").split("/")
            for method in METHODS:
                op = item.get(method)
                if op is None:
                    continue
                pointer = f"{base}/{method}"
                params = shared + [
                    (f"{pointer}/parameters/{i}", p) for i, p in enumerate(op.get("parameters", []))
                ]
                body = op.get("requestBody") or {}
                yield Operation(
                    method=method.upper(),
                    template=template,
                    pattern=re.compile(regex + "$"),
                    literal_segments=sum("{" not in s for s in segments),
                    pointer=pointer,
                    path_params={p["name"]: f"{at}/schema"
                                 for at, p in params if p["in"] == "path"},
                    query_params={p["name"]: (f"{at}/schema", p["schema"])
                                  for at, p in params if p["in"] == "query"},
                    has_body="application/json" in body.get("content", {}),
                    body_required=bool(body.get("required")),
                )

    def find(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation of a concrete API path (`/channels/123/messages`), and its path
        parameters."""
        for op in self.operations:
            if op.method != method:
                continue
            found = op.pattern.match(path)
            if found is not None:
                return op, found.groupdict()
        return None

    def validator(self, pointer: str) -> Draft202012Validator:
        """The validator of the schema at `pointer` in the document, built once."""
        built = self._validators.get(pointer)
        if built is None:
            built = Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=self.registry)
            self._validators[pointer] = built
        return built

    def _body_errors(self, pointer: str, body: Any) -> list[tuple[str, str]]:
        """(JSON path, message) of every error of `body`; a body seen before (a table
        message edited to the same state, the command tree of every sync) is not checked
        again."""
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        key = (pointer, hashlib.blake2b(text.encode(), digest_size=16).digest())
        found = self._seen.get(key)
        if found is None:
            found = []
            for error in self.validator(pointer).iter_errors(body):
                deepest = _deepest(error)
                found.append((deepest.json_path, _message(deepest)))
            self._seen[key] = found
        return found

    def check(self, call: Call) -> list[Violation]:
        """Every way `call` differs from the spec (empty: it fits)."""
        path = concrete_path(call)
        found = self.find(call.method, path)
        if found is None:
            return [Violation(call.method, path, "route", "-", "no such operation in the spec")]
        op, path_values = found
        out: list[Violation] = []

        def bad(where: str, at: str, message: str) -> None:
            out.append(Violation(op.method, op.template, where, at, message))

        for name, pointer in op.path_params.items():
            for error in self.validator(pointer).iter_errors(path_values.get(name)):
                bad("path", name, error.message)
        for name, value in call.query.items():
            param = op.query_params.get(name)
            if param is None:
                bad("query", name, "not a query parameter of this operation")
                continue
            pointer, schema = param
            for error in self.validator(pointer).iter_errors(_query_value(value, schema)):
                bad("query", name, error.message)
        body = call.json
        if body is None:
            if op.body_required:
                bad("body", "$", "a body is required")
        elif not op.has_body:
            bad("body", "$", "this operation takes no JSON body")
        else:
            pointer = f"{op.pointer}/requestBody/content/application~1json/schema"
            for at, message in self._body_errors(pointer, body):
                bad("body", at, message)
            for at, message in cross_field_errors(op.template, body):
                bad("body", at, message)
        return out

    def route(self, call: Call) -> str:
        """The spec's name of the route of `call` ("PATCH /channels/{channel_id}/...")."""
        found = self.find(call.method, concrete_path(call))
        return f"{call.method} {found[0].template}" if found else f"{call.method} (not in spec)"


# -- the rules across fields, which the spec cannot state ------------------------------
#: Discord's limits across the fields of one message (developer docs: Embed Limits,
#: Component Reference); the spec states each field's own limit only.
EMBEDS_TOTAL = 6000
ROW_ITEMS = 5
V2_FLAG = 1 << 15  # IS_COMPONENTS_V2
V2_COMPONENTS = 40
V2_TEXT = 4000
LEGACY_ROWS = 5
ACTION_ROW, BUTTON, TEXT_DISPLAY = 1, 2, 10
SELECTS = frozenset({3, 5, 6, 7, 8})
#: Component types that exist only in a Components V2 message (section, text display,
#: thumbnail, media gallery, file, separator, container).
V2_ONLY = frozenset({9, 10, 11, 12, 13, 14, 17})


def cross_field_errors(template: str, body: Any) -> list[tuple[str, str]]:
    """(JSON path, message) of every rule across fields a message or modal body breaks:
    the embeds' 6,000 characters, 5 items in a row and a select alone in its row, custom ids
    unique in a message or modal, and for a Components V2 message 40 components, 4,000
    characters of text and no content or embeds; a legacy message at most 5 rows."""
    if not isinstance(body, dict):
        return []
    if template.endswith("/callback"):
        data = body.get("data")
        return _message_errors("$.data", data) if isinstance(data, dict) else []
    return _message_errors("$", body)


def _walk_components(items: Any, at: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for i, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict):
            continue
        here = f"{at}[{i}]"
        yield here, item
        yield from _walk_components(item.get("components"), f"{here}.components")
        for key in ("accessory", "component"):
            if isinstance(item.get(key), dict):
                yield f"{here}.{key}", item[key]


def _message_errors(at: str, message: dict[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    embeds = message.get("embeds") or []
    total = sum(_embed_chars(e) for e in embeds if isinstance(e, dict))
    if total > EMBEDS_TOTAL:
        out.append((f"{at}.embeds", f"{total} characters of embeds (at most {EMBEDS_TOTAL})"))
    components = list(_walk_components(message.get("components"), f"{at}.components"))
    seen: dict[str, str] = {}
    for where, item in components:
        custom_id = item.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                out.append((f"{where}.custom_id",
                            f"custom id {custom_id!r} used twice (first at {seen[custom_id]})"))
            seen.setdefault(custom_id, where)
        if item.get("type") == ACTION_ROW:
            inner = [c for c in item.get("components") or [] if isinstance(c, dict)]
            if len(inner) > ROW_ITEMS:
                out.append((where, f"{len(inner)} items in a row (at most {ROW_ITEMS})"))
            if any(c.get("type") in SELECTS for c in inner) and len(inner) > 1:
                out.append((where, "a select menu shares its row"))
    flags = message.get("flags") or 0
    v2 = bool(isinstance(flags, int) and flags & V2_FLAG) or any(
        item.get("type") in V2_ONLY for _, item in components
    )
    top = message.get("components") or []
    if v2:
        if len(components) > V2_COMPONENTS:
            out.append((f"{at}.components",
                        f"{len(components)} components (at most {V2_COMPONENTS})"))
        text = sum(len(str(item.get("content") or "")) for _, item in components
                   if item.get("type") == TEXT_DISPLAY)
        if text > V2_TEXT:
            out.append((f"{at}.components", f"{text} characters of text (at most {V2_TEXT})"))
        for key in ("content", "embeds"):
            if message.get(key):
                out.append((f"{at}.{key}", f"a Components V2 message has no {key}"))
    elif isinstance(top, list) and len(top) > LEGACY_ROWS:
        out.append((f"{at}.components", f"{len(top)} rows (at most {LEGACY_ROWS})"))
    return out


def _embed_chars(embed: dict[str, Any]) -> int:
    """The characters Discord counts toward the 6,000 of a message's embeds."""
    def text(value: Any) -> int:
        return len(value) if isinstance(value, str) else 0

    fields = embed.get("fields") or []
    return (
        text(embed.get("title")) + text(embed.get("description"))
        + sum(text(f.get("name")) + text(f.get("value")) for f in fields if isinstance(f, dict))
        + text((embed.get("footer") or {}).get("text"))
        + text((embed.get("author") or {}).get("name"))
    )


def _escape(template: str) -> str:
    return template.replace("~", "~0").replace("/", "~1")


def concrete_path(call: Call) -> str:
    """The API path of a call, without host and version (`/channels/1/messages`)."""
    path = urlsplit(call.url).path
    return path.split(API_PREFIX, 1)[1] if API_PREFIX in path else path


def _query_value(value: Any, schema: dict[str, Any]) -> Any:
    """A query parameter read as its schema's type (aiohttp sends `1` as "1")."""
    if isinstance(value, bool):
        return value
    value = str(value)
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "boolean" in kinds and value.lower() in _BOOLEANS:
        return _BOOLEANS[value.lower()]
    if "integer" in kinds and re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def _deepest(error: ValidationError) -> ValidationError:
    """The most specific error under a union that no shape fitted."""
    while error.context:
        chosen = best_match(error.context)
        if chosen is None or chosen is error:
            break
        error = chosen
    return error


def _message(error: ValidationError) -> str:
    text = error.message
    return text if len(text) <= 300 else text[:300] + "..."


def _pick(
    validator: Draft202012Validator, spec: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """The `x-discriminator` keyword: validate `instance` as the one shape its property
    names (`spec["mapping"]`: JSON of a value -> that shape), as OpenAPI's `discriminator`."""
    if not validator.is_type(instance, "object"):
        yield ValidationError(f"{instance!r} is not of type 'object'")
        return
    name = spec["property"]
    if name not in instance:
        yield ValidationError(f"{name!r} is a required property")
        return
    shape = spec["mapping"].get(json.dumps(instance[name]))
    if shape is None:
        known = [json.loads(v) for v in spec["mapping"]]
        yield from validator.descend(instance[name], {"enum": known}, path=name)
        return
    yield from validator.descend(instance, shape)


#: Draft 2020-12 with the discriminator keyword (one lookup instead of a branch per shape).
Validator = validators.extend(Draft202012Validator, {DISCRIMINATOR: _pick})


# -- tightening the spec ------------------------------------------------------------------
def tighten(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of the spec with objects closed, unions chosen by their discriminator, and
    `DEVIATIONS` applied (see the module's docstring)."""
    doc = copy.deepcopy(document)
    schemas = doc["components"]["schemas"]
    for deviation in DEVIATIONS:
        deviation.patch(schemas[deviation.schema])
    _walk(doc, _close)
    _walk(doc, _enumerate)
    _walk(doc, lambda node: _discriminate(node, schemas))
    return doc


def _walk(node: Any, visit: Callable[[dict[str, Any]], None]) -> None:
    if isinstance(node, dict):
        visit(node)
        for value in list(node.values()):
            _walk(value, visit)
    elif isinstance(node, list):
        for value in node:
            _walk(value, visit)


def _close(node: dict[str, Any]) -> None:
    """No property beyond those the schema lists."""
    properties = node.get("properties")
    if not isinstance(properties, dict):
        return
    if not all(isinstance(v, dict) for v in properties.values()):
        return  # a property named "properties", not the keyword
    if "additionalProperties" in node or "unevaluatedProperties" in node:
        return
    if any(k in node for k in COMPOSITIONS):
        node["unevaluatedProperties"] = False
    else:
        node["additionalProperties"] = False


def _enumerate(node: dict[str, Any]) -> None:
    """`oneOf` of constants (how the spec writes an enum, each value with its title) as one
    `enum`: the same values, checked in one step instead of one branch each."""
    branches = node.get("oneOf")
    if not isinstance(branches, list) or not branches:
        return
    if all(isinstance(b, dict) and "const" in b and set(b) <= {"const", "title", "description",
                                                                "type", "format"}
           for b in branches):
        values = [b["const"] for b in branches]
        if len({json.dumps(v) for v in values}) == len(values):
            del node["oneOf"]
            node["enum"] = values


def _target(branch: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    ref = branch.get("$ref", "")
    return schemas.get(ref.rsplit("/", 1)[-1], {}) if ref.startswith("#/components/") else branch


def _fixed_values(schema: Any) -> list[Any] | None:
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return [schema["const"]]
    values = schema.get("enum")
    return list(values) if isinstance(values, list) else None


def _discriminator(branches: list[dict[str, Any]], schemas: dict[str, Any]) -> str | None:
    """The property whose fixed values tell the branches apart, if there is one."""
    targets = [_target(b, schemas) for b in branches]
    if len(targets) < 2 or not all("properties" in t for t in targets):
        return None
    shared = set.intersection(*(set(t.get("required", ())) for t in targets))
    for name in sorted(shared, key=lambda n: (n != "type", n)):
        values = [_fixed_values(t["properties"].get(name)) for t in targets]
        if any(v is None for v in values):
            continue
        flat = [json.dumps(x) for v in values for x in v or ()]
        if len(flat) == len(set(flat)):
            return name
    return None


def _discriminate(node: dict[str, Any], schemas: dict[str, Any]) -> None:
    """Rewrite a union into "null, else ..." and "the shape the discriminator names"."""
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list):
            continue
        nullable = [b for b in branches if b == {"type": "null"}]
        shapes = [b for b in branches if b != {"type": "null"}]
        name = _discriminator(shapes, schemas)
        if name is not None:
            mapping = {
                json.dumps(value): branch
                for branch in shapes
                for value in _fixed_values(_target(branch, schemas)["properties"][name]) or ()
            }
            chosen: dict[str, Any] = {DISCRIMINATOR: {"property": name, "mapping": mapping}}
        elif nullable and len(shapes) == 1:
            chosen = shapes[0]
        else:
            continue
        del node[keyword]
        if nullable:
            node.update({"if": {"type": "null"}, "else": chosen})
        else:
            node.update(chosen)
        return
