"""Integer constants decoded from .bin bytes exactly as OpenVINO packs them (ov_semantics §4.6)."""
import struct

import pytest

from irvalidate.ir.weights import BinFile, ConstError, ConstSpec, const_spec, decode_integers


@pytest.mark.parametrize("et,count,raw,values", [
    ("u1", 9, "b0 80", [1, 0, 1, 1, 0, 0, 0, 0, 1]),       # MSB first
    ("u2", 5, "39 01", [1, 2, 3, 0, 1]),                   # LSB first
    ("u4", 3, "21 03", [1, 2, 3]),                         # low nibble first
    ("i4", 3, "2f 08", [-1, 2, -8]),
    ("u3", 8, "6c 6c 1e", [1, 2, 3, 4, 5, 6, 7, 0]),       # 2 bytes of low bits, 1 of bit 2
    ("u6", 4, "12 3f 03", [1, 2, 3, 63]),                  # nibbles high first, then top bits
])
def test_sub_byte_packing(et, count, raw, values):
    assert decode_integers(ConstSpec(et, (count,), 0, 3), bytes.fromhex(raw)) == values


@pytest.mark.parametrize("et,fmt", [("i8", "b"), ("i16", "h"), ("i32", "i"), ("i64", "q"),
                                    ("u8", "B"), ("u16", "H"), ("u32", "I"), ("u64", "Q")])
def test_byte_types_little_endian(et, fmt):
    values = [0, 1, -2 if et.startswith("i") else 2, 127]
    raw = struct.pack("<" + fmt * len(values), *values)
    assert decode_integers(ConstSpec(et, (len(values),), 0, len(raw)), raw) == values


@pytest.mark.parametrize("et,dtype", [("i8", "<i1"), ("i16", "<i2"), ("i32", "<i4"), ("i64", "<i8"),
                                      ("u8", "<u1"), ("u16", "<u2"), ("u32", "<u4"), ("u64", "<u8")])
def test_byte_types_read_many_values_as_numpy_does(et, dtype):
    # a quantized weight's thousands of numbers, extremes included, read in one call
    numpy = pytest.importorskip("numpy")
    info = numpy.iinfo(dtype)
    values = numpy.random.default_rng(26).integers(info.min, info.max, 4096, dtype=dtype,
                                                  endpoint=True)
    values[:2] = info.min, info.max
    raw = values.tobytes() + b"\xff" * 3   # (a declared size may be larger than the shape)
    decoded = decode_integers(ConstSpec(et, (len(values),), 0, len(raw)), raw)
    assert decoded == values.tolist() and all(type(v) is int for v in decoded)


def write_bin(tmp_path, payload):
    path = tmp_path / "w.bin"
    path.write_bytes(payload)
    return BinFile(str(path))


def test_reads_only_the_range_and_allows_overlap(tmp_path):
    weights = write_bin(tmp_path, struct.pack("<3q", 7, 8, 9))
    assert weights.integers({"element_type": "i64", "shape": "2", "offset": "8", "size": "16"}) == [8, 9]
    assert weights.integers({"element_type": "i64", "shape": "2", "offset": "0", "size": "16"}) == [7, 8]


@pytest.mark.parametrize("data,fragment", [
    ({"element_type": "i64", "shape": "2", "offset": "16", "size": "16"}, "outside the .bin"),
    ({"element_type": "i64", "shape": "2", "offset": "0", "size": "8"}, "smaller than the 16 bytes"),
    ({"element_type": "f32", "shape": "2", "offset": "0", "size": "8"}, "not an integer type"),
    ({"element_type": "FP32", "shape": "2", "offset": "0", "size": "8"}, "not a known type"),
    ({"element_type": "i64", "shape": "2", "offset": "-1", "size": "8"}, "negative"),
    ({"element_type": "i64", "shape": "?", "offset": "0", "size": "8"}, "static"),
    ({"element_type": "i64", "shape": "99999999999", "offset": "0", "size": "799999999992"},
     "too many"),
])
def test_bad_constants_raise_clear_errors(tmp_path, data, fragment):
    weights = write_bin(tmp_path, bytes(24))
    with pytest.raises(ConstError, match=fragment):
        weights.integers(data)


def test_missing_and_directory_bin(tmp_path):
    assert "does not exist" in BinFile(str(tmp_path / "none.bin")).error
    assert "not a regular file" in BinFile(str(tmp_path)).error


def test_const_spec_counts_bits():
    assert const_spec({"element_type": "u1", "shape": "9", "offset": "0", "size": "2"}).required_bytes == 2
    assert const_spec({"element_type": "i64", "shape": "2, 3", "offset": "0", "size": "48"}).count == 6


@pytest.mark.parametrize("et,size", [("u6", 1), ("u3", 1), ("u6", 3), ("u3", 3)])
def test_grouped_types_with_a_short_size_decode_without_overrun(tmp_path, et, size):
    # the size rule asks ceil(n*bits/8) bytes; the packing uses whole 3-byte groups
    weights = write_bin(tmp_path, bytes.fromhex("12 3f 03") + bytes(8))
    values = weights.integers({"element_type": et, "shape": "1", "offset": "0", "size": str(size)})
    assert len(values) == 1 and 0 <= values[0] < (64 if et == "u6" else 8)


@pytest.mark.parametrize("et,raw,values", [
    ("f32", struct.pack("<2f", 1.5, -2.0), [1.5, -2.0]),
    ("f16", struct.pack("<2e", 0.5, 3.0), [0.5, 3.0]),
    ("f64", struct.pack("<2d", 1.25, 1e300), [1.25, 1e300]),
    ("bf16", bytes.fromhex("c03f 4040"), [1.5, 3.0]),  # the upper halves of f32s
    ("i32", struct.pack("<2i", -3, 7), [-3.0, 7.0]),
])
def test_real_constants_decode_as_floats(tmp_path, et, raw, values):
    weights = write_bin(tmp_path, raw)
    assert weights.floats({"element_type": et, "shape": "2", "offset": "0", "size": str(len(raw))}) == values


def test_floats_refuse_what_is_no_number(tmp_path):
    weights = write_bin(tmp_path, b"\x01\x00")
    with pytest.raises(ConstError):
        weights.floats({"element_type": "boolean", "shape": "2", "offset": "0", "size": "2"})
