"""Shared JSON rendering for the dev tools; must match Node.jsonText (Swift).

Rules: null/bool/int as JSON literals; floats as Python repr (same shortest
round-trip text as Swift's description), non-finite floats as the strings
".inf", "-.inf", ".nan"; keys as strings (non-string scalar keys in canonical
text); strings escaped like json.dumps(ensure_ascii=False). datetime.date
values (ruamel reads YYYY-MM-DD as a date; our parser keeps it as a string)
render as their ISO text, which equals the source text.
"""
import datetime
import math

from ruamel.yaml import YAML


def load(text_or_bytes):
    """Loads one document as YAML 1.2 reads it.

    A missing final line break is added first, as the YAML 1.2 reference
    parser does: the end of the input ends the last line. ruamel alone reads
    `a: |\n  x` (no final break) as "x" and `- |+\n   ` as [""], where the
    reference parser, the yaml-test-suite (L24T, JEF9) and album read "x\n"
    and ["\n"]. Nothing else changes meaning with a final break.
    """
    data = text_or_bytes
    if isinstance(data, bytes) and data and not data.endswith((b"\n", b"\r")):
        data += b"\n"
    elif isinstance(data, str) and data and not data.endswith(("\n", "\r")):
        data += "\n"
    y = YAML(typ="safe", pure=True)
    y.version = (1, 2)
    return y.load(data)


def float_text(d):
    if math.isnan(d):
        return ".nan"
    if math.isinf(d):
        return ".inf" if d > 0 else "-.inf"
    return repr(d)


def json_string(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif o < 0x20:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def key_text(k):
    if k is None:
        return "null"
    if isinstance(k, bool):
        return "true" if k else "false"
    if isinstance(k, int):
        return str(k)
    if isinstance(k, float):
        return float_text(k)
    if isinstance(k, (datetime.date, datetime.datetime)):
        return k.isoformat()
    if isinstance(k, str):
        return k
    raise TypeError("unsupported key type %r" % type(k))


def render(v, pretty, level=0):
    nl = (lambda lv: "\n" + "  " * lv) if pretty else (lambda lv: "")
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        t = float_text(v)
        return t if math.isfinite(v) else json_string(t)
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, (datetime.date, datetime.datetime)):
        return json_string(v.isoformat())
    if isinstance(v, list):
        if not v:
            return "[]"
        parts = [nl(level + 1) + render(x, pretty, level + 1) for x in v]
        return "[" + ",".join(parts) + nl(level) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        sep = ": " if pretty else ":"
        parts = [nl(level + 1) + json_string(key_text(k)) + sep + render(x, pretty, level + 1) for k, x in v.items()]
        return "{" + ",".join(parts) + nl(level) + "}"
    raise TypeError("unsupported value type %r" % type(v))
