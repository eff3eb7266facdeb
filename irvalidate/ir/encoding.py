"""The encoding of an XML file told by its first bytes, without reading it as XML.

The XML specification (appendix F) tells UTF-16 and UTF-32 from their byte order mark or,
without one, from the zero bytes around the ``<`` the text starts with.  OpenVINO's reader
(pugixml) goes further than the appendix: a ``<`` and a zero byte are UTF-16 whatever
follows, so ``<net`` without an XML declaration is read too.  libxml2 does not: the parser
names the encoding for it (``unmarked_utf16``).
"""
from __future__ import annotations

#: (first bytes, encoding), the four-byte patterns before the two-byte ones they start with
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x00\x00\xfe\xff", "UTF-32BE"),  # byte order marks
    (b"\xff\xfe\x00\x00", "UTF-32LE"),
    (b"\x00\x00\xff\xfe", "UCS-4 (2143 order)"),
    (b"\xfe\xff\x00\x00", "UCS-4 (3412 order)"),
    (b"\x00\x00\x00<", "UTF-32BE"),  # "<" without a mark
    (b"<\x00\x00\x00", "UTF-32LE"),
    (b"\x00\x00<\x00", "UCS-4 (2143 order)"),
    (b"\x00<\x00\x00", "UCS-4 (3412 order)"),
    (b"\x4c\x6f\xa7\x94", "EBCDIC"),
    (b"\xfe\xff", "UTF-16BE"),
    (b"\xff\xfe", "UTF-16LE"),
    (b"\x00<", "UTF-16BE"),
    (b"<\x00", "UTF-16LE"),
)


def sniff(head: bytes) -> str | None:
    """The encoding the first four bytes of ``head`` give, or None for UTF-8 (with or
    without its mark) and the other encodings in which "<" is one byte of its own."""
    for start, encoding in _SIGNATURES:
        if head.startswith(start):
            return encoding
    return None


def unmarked_utf16(head: bytes) -> str | None:
    """"UTF-16LE" or "UTF-16BE" for UTF-16 text without a byte order mark (libxml2 then
    needs the encoding named, unless an XML declaration follows), else None."""
    encoding = sniff(head)
    if encoding in ("UTF-16LE", "UTF-16BE") and head[:2] not in (b"\xfe\xff", b"\xff\xfe"):
        return encoding
    return None
