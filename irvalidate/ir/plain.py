"""The subset of XML that OpenVINO's serializer writes, as patterns for ``re``'s C engine, and
the pure readers of what they match.  ``scanner.py`` reads files with them.

Each pattern accepts only text whose XML meaning is its literal text: ASCII names without
a colon, double-quoted values with no entity reference and no tab, newline or carriage
return (which attribute-value normalisation would change), numbers written plainly.  What
they do not match is read by lxml.
"""
from __future__ import annotations

import re

S = r"[ \t\r\n]"
#: ASCII names only, and no colon: namespaces and long names go to lxml
_NAME = r"[A-Za-z_][-A-Za-z0-9._]{0,199}"
#: a value that needs no normalisation: no entity, no tab, newline or carriage return
_VALUE = r'"[^"<&\t\n\r]*"'
_ATTRS = rf"(?:{S}+{_NAME}{S}*={S}*{_VALUE})*{S}*"
_DIMS = rf"(?:{S}*<dim>(?:-1|[0-9]{{1,18}})</dim>)*"
_RT_INFO = rf"<rt_info>(?:{S}*<attribute{_ATTRS}/>)*{S}*</rt_info>|<rt_info{S}*/>"
_PORT = rf"<port{_ATTRS}(?:/>|>{_DIMS}(?:{S}*(?:{_RT_INFO}))?{S}*</port>)"
_PORTS = rf"(?:{S}*{_PORT})*{S}*"
#: a layer's start tag (group 2: self-closing) or end tag (group 1), for nested layers
LAYER_TAG = re.compile(r"<(?:(/)layer[ \t\r\n]*>|layer(?=[ \t\r\n/>])"
                        r"(?:[ \t\r\n]+[^ \t\r\n=/>]+[ \t\r\n]*=[ \t\r\n]*(?:\"[^\"]*\"|'[^']*'))*"
                        r"[ \t\r\n]*(/?)>)")
#: a layer's start tag as the serializer writes it, and as anyone may
HEAD = re.compile(r'([ \t\r\n]*)<layer id="([^"<&\t\n\r]*)" name="([^"<&\t\n\r]*)" '
                   r'type="([^"<&\t\n\r]*)" version="([^"<&\t\n\r]*)"'
                   r'(?: output_names="[^"<&\t\n\r]*")?>'
                   r'(?:([ \t\r\n]*)<data([^<>]*)/>)?')
_DATA_ATTRS = re.compile(_ATTRS)
#: what follows a layer's <data> (or start tag), up to its end tag: (input ports, output ports)
_REST = re.compile(rf"{S}*(?:(?:{_RT_INFO}){S}*)?(?:<input>({_PORTS})</input>{S}*)?"
                   rf"(?:<output>({_PORTS})</output>{S}*)?(?:(?:{_RT_INFO}){S}*)?")
_PAIRS = re.compile(rf"({_NAME}){S}*={S}*\"([^\"]*)\"")
_PORT_PARTS = re.compile(rf"<port({_ATTRS})(/?)>((?:{_DIMS}))")
_DIM = re.compile(r"<dim>([^<]*)</dim>")
EDGE = re.compile(rf"{S}*<edge{S}+from-layer=\"([^\"<&\t\n\r]*)\"{S}+from-port=\"([^\"<&\t\n\r]*)\""
                   rf"{S}+to-layer=\"([^\"<&\t\n\r]*)\"{S}+to-port=\"([^\"<&\t\n\r]*)\"{S}*/>")
EDGE_VALUES = re.compile(r'<edge from-layer="([^"<&\t\n\r]*)" from-port="([^"<&\t\n\r]*)" '
                          r'to-layer="([^"<&\t\n\r]*)" to-port="([^"<&\t\n\r]*)" ?/>')
EDGE_LINES = re.compile(rf"(?:\n[ \t]*{EDGE_VALUES.pattern})*{S}*")
SPACE = re.compile(rf"{S}*")
PROLOG = re.compile(rf"(?:\ufeff)?(?:<\?xml{S}+version{S}*={S}*[\"']1\.0[\"']"
                     rf"(?:{S}+encoding{S}*={S}*[\"'](?i:utf-8)[\"'])?"
                     rf"(?:{S}+standalone{S}*={S}*[\"'](?:yes|no)[\"'])?{S}*\?>)?{S}*"
                     rf"<net({_ATTRS})>{S}*<layers>{S}*")
#: a file whose root is <net> (or which lxml finds broken before its root), told from its
#: first bytes: UTF-8, an optional declaration, then <net (see reader.net_or_broken)
NET_START = re.compile(rb"(?:\xef\xbb\xbf)?(?:<\?xml[ \t\r\n][^<>]*\?>)?[ \t\r\n]*<net[ \t\r\n/>]")
#: what no plain file holds: C0 controls but tab and newline, a lone carriage return,
#: the non-characters U+FFFE and U+FFFF (lxml refuses or rewrites them all)
CONTROLS = bytes(c for c in range(32) if c not in (9, 10, 13))
LONE_CR = re.compile("\r(?!\n)")
#: the <data> of a layer without one (never modified, as no parsed <data> is)
NO_DATA: dict[str, str] = {}
_PORT_KEYS = frozenset({"id", "precision", "names"})
_MAX_DATA_ATTRIBUTES = 256  # schema.MAX_ATTRIBUTES: more goes to lxml, which words it


#: one port of a cached section: id, dims, precision, newlines before its start tag's end
PortText = tuple[str, tuple[int, ...], str | None, int]
#: what follows a layer's <data>: its input ports, its output ports, its newlines
Rest = tuple[tuple[PortText, ...], tuple[PortText, ...], int]


class Complex(Exception):
    """The layer matched the pattern but is not plain after all (lxml reads it)."""


def attributes(text: str, allowed: frozenset | None) -> dict[str, str] | None:
    """The attributes of a start tag's text, or None when one repeats (lxml refuses the
    file) or is not ``allowed``."""
    pairs = _PAIRS.findall(text)
    found = dict(pairs)
    if len(found) != len(pairs):
        return None
    if allowed is not None and not allowed.issuperset(found):
        return None
    return found


#: attribute names, and the values that repeat, as one string each (a Const's offset is
#: its own): a model may keep thousands of layers' <data> at once
SHARED: dict[str, str] = {}
#: strings shared at most (then all are forgotten: a hostile file must not grow it)
MAX_SHARED = 4096
_OWN_VALUES = frozenset({"offset"})


def shared(text: str) -> str:
    found = SHARED.get(text)
    if found is None:
        if len(SHARED) >= MAX_SHARED:
            SHARED.clear()
        found = SHARED[text] = text
    return found


#: a Const's <data> as the serializer writes it (half the layers of a model, each its own)
_CONST_DATA = re.compile(r' element_type="([^"<&\t\n\r]*)" shape="([^"<&\t\n\r]*)" '
                         r'offset="([^"<&\t\n\r]*)" size="([^"<&\t\n\r]*)" ?')


def data(text: str) -> dict[str, str] | None:
    """The attributes of a ``<data>`` start tag's text, or None unless it is plain."""
    const = _CONST_DATA.fullmatch(text)
    if const is not None:
        et, shape, offset, size = const.groups()
        return {"element_type": shared(et), "shape": shared(shape), "offset": offset,
                "size": shared(size)}
    if _DATA_ATTRS.fullmatch(text) is None:
        return None
    pairs = _PAIRS.findall(text)
    if len(pairs) > _MAX_DATA_ATTRIBUTES:
        return None
    found = {shared(name): value if name in _OWN_VALUES else shared(value)
             for name, value in pairs}
    return found if len(found) == len(pairs) else None


def rest(text: str) -> Rest | None:
    """The ports of what follows a layer's <data> (or start tag) up to its end tag, and its
    newlines; None unless it is plain."""
    match = _REST.fullmatch(text)
    if match is None:
        return None
    try:
        inputs = _section(match.group(1), text.count("\n", 0, match.start(1))) if match.group(1) else ()
        outputs = _section(match.group(2), text.count("\n", 0, match.start(2))) if match.group(2) else ()
    except Complex:
        return None
    return inputs, outputs, text.count("\n")


def _section(text: str, lines: int) -> tuple[PortText, ...]:
    """The ports of an ``<input>`` or ``<output>`` section's text, which starts ``lines``
    newlines into what the layer's lines count from."""
    ports: list[PortText] = []
    counted = 0
    port_of, dims_of = _PORT_ATTRIBUTES.get, _DIMS_READ.get
    for match in _PORT_PARTS.finditer(text):
        attrs, closed, dims_text = match.groups()
        port = port_of(attrs)
        if port is None:
            port = _port_attributes(attrs)
        dims = () if closed else dims_of(dims_text)
        if dims is None:
            dims = _dims(dims_text)
        lines += text.count("\n", counted, match.end(2))  # (counted once: a Concat may
        counted = match.end(2)                            # have thousands of ports)
        ports.append((port[0], dims, port[1], lines))
    return tuple(ports)


#: a port's attribute text -> (id, precision), and a port's dims text -> its dims: an input
#: port's text repeats (an output port's holds its names), dims repeat all over a model
_PORT_ATTRIBUTES: dict[str, tuple[str, str | None]] = {}
_DIMS_READ: dict[str, tuple[int, ...]] = {}
#: entries each keeps at most (then all are forgotten: a hostile file must not grow them),
#: and the longest text kept (a port's dims at rank 8 take ~150 characters)
MAX_PORT_TEXTS = 4096
MAX_PORT_TEXT = 512


def _port_attributes(text: str) -> tuple[str, str | None]:
    found = attributes(text, _PORT_KEYS)
    if found is None or "id" not in found:
        raise Complex
    port = found["id"], found.get("precision")
    _keep(_PORT_ATTRIBUTES, text, port)
    return port


def _dims(text: str) -> tuple[int, ...]:
    dims = tuple(int(d) for d in _DIM.findall(text))
    _keep(_DIMS_READ, text, dims)
    return dims


def _keep(cache: dict, text: str, read: tuple) -> None:
    if len(text) <= MAX_PORT_TEXT:
        if len(cache) >= MAX_PORT_TEXTS:
            cache.clear()
        cache[text] = read


#: what may follow ``</edges>``: whitespace and tags with plain attributes
_TAIL_TOKEN = re.compile(rf"{S}+|<({_NAME})({_ATTRS})(/?)>|</({_NAME}){S}*>")


def plain_tail(text: str) -> bool:
    """Whether the end of a file (what follows ``</edges>``) is an optional ``<rt_info>`` of
    plain elements, ``</net>`` and whitespace: a well-formed end that the schema accepts,
    told without lxml (anything else is for lxml to judge)."""
    stack: list[str] = []
    pos, info = 0, False
    while pos < len(text):
        token = _TAIL_TOKEN.match(text, pos)
        if token is None:
            return False
        pos = token.end()
        name, attrs, closed, end = token.groups()
        if name is not None:
            if not stack:
                if name != "rt_info" or info:
                    return False
                info = True
            if attributes(attrs, None) is None:
                return False
            if not closed:
                stack.append(name)
        elif end is not None:
            if not stack:
                return end == "net" and not text[pos:].strip(" \t\r\n")
            if stack.pop() != end:
                return False
    return False
