"""Decode integer (and real) constants from the ``.bin`` beside an IR, reading only the bytes needed.

Shared and overlapping byte ranges are legal (the serializer deduplicates payloads), so
nothing here assumes a Const owns its bytes.  No tensor of a declared shape is ever built:
sizes are checked arithmetically before anything is read.
"""
from __future__ import annotations

import os
import struct
from collections.abc import Mapping
from functools import lru_cache
from math import prod

from ..shapes.dims import parse_decimal, parse_shape
from . import elements
from .lfs import MAX_POINTER_BYTES, describe_lfs_pointer, lfs_pointer_size

#: constants longer than this are not decoded (a target_shape is short; this bounds memory)
MAX_DECODED_ELEMENTS = 1 << 16


class ConstError(ValueError):
    """The Const layer cannot be decoded; the message says why, for a finding.

    ``kind`` tells which rule speaks for it: "structure" (invalid-constant checks every
    Const), "type" (element-type-mismatch), "limit" (too long to be a shape) or "weights"
    (the .bin is missing: missing-weights).
    """

    def __init__(self, message: str, kind: str = "structure") -> None:
        super().__init__(message)
        self.kind = kind


class ConstSpec:
    """A Const's validated attributes (not a dataclass: importing dataclasses costs ~10 ms
    of each start)."""
    __slots__ = ("element_type", "shape", "offset", "size")

    def __init__(self, element_type: str, shape: tuple[int, ...], offset: int, size: int) -> None:
        self.element_type = element_type
        self.shape = shape
        self.offset = offset
        self.size = size

    def __eq__(self, other: object):
        if type(other) is not ConstSpec:
            return NotImplemented
        return (self.element_type, self.shape, self.offset, self.size) == \
            (other.element_type, other.shape, other.offset, other.size)

    def __hash__(self) -> int:
        return hash((self.element_type, self.shape, self.offset, self.size))

    def __repr__(self) -> str:
        return (f"ConstSpec(element_type={self.element_type!r}, shape={self.shape!r}, "
                f"offset={self.offset!r}, size={self.size!r})")

    @property
    def count(self) -> int:
        return prod(self.shape)

    @property
    def required_bytes(self) -> int:
        return (self.count * elements.BITS[self.element_type] + 7) // 8


def const_spec(data: Mapping[str, str]) -> ConstSpec:
    """Validate a Const layer's ``<data>`` (element_type, shape, offset, size)."""
    get = data.get
    return _const_spec(get("element_type"), get("shape", ""), get("offset", ""), get("size", ""))


#: a Const is read by its own layer, the ops that read its values and two rules, a batch of
#: layers apart at most (a ConstError is not remembered)
@lru_cache(maxsize=2048)
def _const_spec(element_type: str | None, shape: str, offset: str, size: str) -> ConstSpec:
    et = elements.from_element_type(element_type)
    if et is None:
        raise ConstError(f"element_type {element_type!r} is not a known type")
    try:
        dims = parse_shape(shape)
        start, length = parse_decimal(offset), parse_decimal(size)
    except ValueError as err:
        raise ConstError(f"malformed Const attributes: {err}") from None
    if dims is None or any(not d.is_static for d in dims):
        raise ConstError("a Const shape must be static")
    if start < 0 or length < 0:
        raise ConstError(f"negative offset ({start}) or size ({length})")
    return ConstSpec(et, tuple(d.lo for d in dims), start, length)


#: more elements than this cannot be stored in any file (1 EB of 1-byte elements)
MAX_BIN_ELEMENTS = 10 ** 18


def _shape_text(shape: tuple[int, ...]) -> str:
    text = "[" + ", ".join(str(d) for d in shape[:8]) + (", ..." if len(shape) > 8 else "") + "]"
    return text


def const_problems(data: Mapping[str, str]) -> list[str]:
    """What is wrong with a Const's offset, size, element type and shape together (the
    ``.bin`` itself aside: see :func:`bytes_past_end`)."""
    try:
        spec = const_spec(data)
    except ConstError as err:
        return [str(err)]
    if spec.count > MAX_BIN_ELEMENTS:
        return [f"shape {_shape_text(spec.shape)} has more than {MAX_BIN_ELEMENTS:.0e} elements; "
                f"no .bin holds that"]
    if spec.element_type == "dynamic":
        return ["a Const cannot have the dynamic element type"]
    required = spec.required_bytes
    # a larger size is read identically (the first bytes only), so it is no error
    if spec.element_type != "string" and spec.size < required:
        return [f"size {spec.size} is smaller than the {required} bytes that shape "
                f"{_shape_text(spec.shape)} of {spec.element_type} needs"]
    return []


def bytes_past_end(data: Mapping[str, str], bin_size: int) -> int | None:
    """The end of a Const's bytes when it lies past the end of a ``.bin`` of ``bin_size``
    bytes (OpenVINO: "Incorrect weights in bin file!"), else None."""
    try:
        spec = const_spec(data)
    except ConstError:
        return None  # const_problems says why
    end = spec.offset + spec.size
    return end if end > bin_size else None


def _unpack_bits(raw: bytes, bits: int, count: int, msb_first: bool) -> list[int]:
    per_byte = 8 // bits
    mask = (1 << bits) - 1
    out = []
    for i in range(count):
        byte, slot = raw[i // per_byte], i % per_byte
        shift = (per_byte - 1 - slot) * bits if msb_first else slot * bits
        out.append((byte >> shift) & mask)
    return out


def _unpack_u3(raw: bytes, count: int) -> list[int]:
    out = []
    for i in range(count):
        group, k = divmod(i, 8)
        base = group * 3
        low_byte = raw[base + k // 4]
        low = (low_byte >> (6 - 2 * (k % 4))) & 0b11
        high = (raw[base + 2] >> (7 - k)) & 1
        out.append(low | (high << 2))
    return out


def _unpack_u6(raw: bytes, count: int) -> list[int]:
    out = []
    for i in range(count):
        group, k = divmod(i, 4)
        base = group * 3
        nibble = (raw[base + k // 2] >> (4 if k % 2 == 0 else 0)) & 0xF
        high = (raw[base + 2] >> (6 - 2 * k)) & 0b11
        out.append(nibble | (high << 4))
    return out


def _group_bytes(spec: ConstSpec) -> int:
    """Bytes the decoder reads: whole 3-byte groups for u3 (8 values) and u6 (4 values)."""
    per_group = {"u3": 8, "u6": 4}.get(spec.element_type)
    if per_group is None:
        return spec.required_bytes
    return -(-spec.count // per_group) * 3


#: struct's code for a signed integer of each width in bytes (upper case: unsigned)
_INTEGER_CODES = {1: "b", 2: "h", 4: "i", 8: "q"}


def decode_integers(spec: ConstSpec, raw: bytes) -> list[int]:
    """Integer values of a Const payload, little-endian; sub-byte types as OpenVINO packs them."""
    et, count = spec.element_type, spec.count
    if et not in elements.INTEGRAL:
        raise ConstError(f"element type {et} is not an integer type", "type")
    bits = elements.BITS[et]
    if bits >= 8:
        width, signed = bits // 8, et in elements.SIGNED
        if len(raw) >= count * width:  # (one C call: a quantized weight holds thousands)
            code = _INTEGER_CODES[width]
            return list(struct.unpack(f"<{count}{code if signed else code.upper()}",
                                      raw[:count * width]))
        return [int.from_bytes(raw[i * width:(i + 1) * width], "little", signed=signed)
                for i in range(count)]
    if et == "u1":
        return _unpack_bits(raw, 1, count, msb_first=True)
    if et == "u3":
        return _unpack_u3(raw, count)
    if et == "u6":
        return _unpack_u6(raw, count)
    values = _unpack_bits(raw, bits, count, msb_first=False)
    if et == "i4":
        values = [v - 16 if v >= 8 else v for v in values]
    return values


#: real element types decode_reals reads, and their struct formats (bf16 is the upper half
#: of an f32)
REAL_TYPES = {"f16": "e", "f32": "f", "f64": "d", "bf16": "H"}


def decode_reals(spec: ConstSpec, raw: bytes) -> list[float]:
    """Real values of a Const payload, little-endian."""
    fmt = REAL_TYPES[spec.element_type]
    values = struct.unpack(f"<{spec.count}{fmt}", raw[:spec.count * struct.calcsize(fmt)])
    if spec.element_type == "bf16":
        return [struct.unpack("<f", struct.pack("<I", v << 16))[0] for v in values]
    return list(values)


def _inside(path: str, folder: str) -> bool:
    real, base = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([real, base]) == base


@lru_cache(maxsize=256)
def git_work_tree(folder: str) -> str | None:
    """The top of the git work tree ``folder`` is in (the nearest folder above, itself
    included, holding ``.git``: a folder, or a file for a linked worktree or a submodule),
    or None; found by walking up, as git does, without running git."""
    current = os.path.abspath(folder)
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _link_leaving(path: str, folder: str) -> str | None:
    """The git work tree a ``.bin`` beside the XML in ``folder`` is a link out of, or None:
    a link within the model's folder or its work tree, or with no work tree, is followed
    as the runtime follows it (the Hugging Face cache links snapshots to blobs)."""
    if _inside(path, folder):
        return None
    top = git_work_tree(folder)
    return top if top is not None and not _inside(path, top) else None


def _unusable(path: str) -> str | None:
    """Why a regular file cannot serve as the weights: unreadable, or a Git LFS pointer."""
    name = os.path.basename(path)
    try:
        with open(path, "rb") as handle:
            head = handle.read(MAX_POINTER_BYTES)
    except OSError as err:
        return f"{name} cannot be read: {err.strerror or err}"
    size = lfs_pointer_size(head)
    return describe_lfs_pointer(name, size) if size is not None else None


class BinFile:
    """Random access to one ``.bin``; opened lazily, each range read at most once."""

    def __init__(self, path: str | None, confine_to: str | None = None) -> None:
        """``confine_to``: the XML's folder, when the .bin is the one beside it: a link out
        of the git work tree that folder is in is not followed (a pull request could
        otherwise make CI echo any file's bytes into a published report)."""
        self.path = path
        self._size: int | None = None
        self._error: str | None = None
        #: the work tree a refused link leaves (the runtime itself would read the file)
        self.left_tree: str | None = None
        self._cache: dict[tuple[int, int], bytes] = {}
        if path is None:
            self._error = "no .bin file was given"
        elif not os.path.exists(path):
            self._error = f"{os.path.basename(path)} does not exist"
        elif not os.path.isfile(path):
            # a directory, FIFO or device: never opened (reading a FIFO would hang)
            self._error = f"{os.path.basename(path)} is not a regular file"
        elif confine_to is not None and self._leaves(path, confine_to):
            self._error = (f"{os.path.basename(path)} is a link that leaves the git work tree "
                           f"the model is in ({os.path.basename(self.left_tree or '') or self.left_tree}"
                           f"), which irvalidate does not follow: a pull request must not make "
                           f"CI read files outside the repository")
        else:
            self._error = _unusable(path)

    def _leaves(self, path: str, folder: str) -> bool:
        self.left_tree = _link_leaving(path, folder)
        return self.left_tree is not None

    @property
    def lfs_pointer(self) -> bool:
        return self._error is not None and "Git LFS pointer" in self._error

    @property
    def error(self) -> str | None:
        return self._error

    def size(self) -> int:
        if self._size is None:
            self._size = os.path.getsize(self.path)  # type: ignore[arg-type]  # read only with a path
        return self._size

    def read(self, offset: int, size: int) -> bytes:
        if self._error:
            raise ConstError(self._error, "weights")
        if offset + size > self.size():
            raise ConstError(f"bytes {offset}..{offset + size} lie outside the .bin "
                             f"({self.size()} bytes)")
        key = (offset, size)
        if key not in self._cache:
            with open(self.path, "rb") as handle:  # type: ignore[arg-type]  # read only with a path
                handle.seek(offset)
                self._cache[key] = handle.read(size)
        return self._cache[key]

    def integers(self, data: Mapping[str, str]) -> list[int]:
        """Decode an integer Const from its ``<data>``; ConstError says what is wrong."""
        spec = const_spec(data)
        if spec.element_type not in elements.INTEGRAL:
            raise ConstError(f"element type {spec.element_type} is not an integer type", "type")
        return decode_integers(spec, self._payload(spec))

    def booleans(self, data: Mapping[str, str]) -> list[int]:
        """Decode a boolean Const (one byte each, as stored: 0 and 1, or another byte the
        caller decides about); ConstError says what is wrong."""
        spec = const_spec(data)
        if spec.element_type != "boolean":
            raise ConstError(f"element type {spec.element_type} is not boolean", "type")
        return list(self._payload(spec)[:spec.count])

    def floats(self, data: Mapping[str, str]) -> list[float]:
        """Decode a real (f16, bf16, f32, f64) or integer Const as floats."""
        spec = const_spec(data)
        if spec.element_type in elements.INTEGRAL:
            return [float(v) for v in decode_integers(spec, self._payload(spec))]
        if spec.element_type not in REAL_TYPES:
            raise ConstError(f"element type {spec.element_type} is not a number type", "type")
        return decode_reals(spec, self._payload(spec))

    def _payload(self, spec: ConstSpec) -> bytes:
        """The bytes a Const's values take (checked against its size and the .bin)."""
        if spec.count > MAX_DECODED_ELEMENTS:
            raise ConstError(f"it holds {spec.count if spec.count < MAX_BIN_ELEMENTS else 'over 1e18'} "
                             f"elements, too many for a shape or an axes list (irvalidate decodes "
                             f"up to {MAX_DECODED_ELEMENTS}); not decoded", "limit")
        if spec.size < spec.required_bytes:
            raise ConstError(f"size {spec.size} is smaller than the {spec.required_bytes} bytes "
                             f"that shape {_shape_text(spec.shape)} of {spec.element_type} needs")
        if self._error:
            raise ConstError(self._error, "weights")
        if spec.offset + spec.size > self.size():
            raise ConstError(f"bytes {spec.offset}..{spec.offset + spec.size} lie outside the .bin "
                             f"({self.size()} bytes)")
        # only the bytes the shape needs (a declared size may be far larger); u3 and u6 are
        # packed in 3-byte groups, which the size rule does not require to be complete
        wanted = min(_group_bytes(spec), spec.size)
        raw = self.read(spec.offset, wanted)
        return raw + bytes(_group_bytes(spec) - len(raw))

    def first_number(self, data: Mapping[str, str]) -> float | None:
        """The first value of a Const of an integer or real type (None when it holds none),
        reading only its bytes: a min/max scalar compared as the runtime compares it."""
        spec = const_spec(data)
        et = spec.element_type
        if et not in elements.INTEGRAL and et not in REAL_TYPES:
            raise ConstError(f"element type {et} is not a number type", "type")
        if spec.count == 0:
            return None
        first = ConstSpec(et, (1,), spec.offset, spec.size)
        wanted = _group_bytes(first)
        if spec.size < wanted:
            raise ConstError(f"size {spec.size} is smaller than the {wanted} bytes of its first value")
        raw = self.read(spec.offset, wanted)
        decode = decode_integers if et in elements.INTEGRAL else decode_reals
        return decode(first, raw)[0]
