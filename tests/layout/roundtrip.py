"""Saves, loads and hashes across layouts: the kitchen world built by the soa and by the
struct-layout program is one document, each loads the other's and saves it back byte for byte,
and every world hashes alike."""
import os
import subprocess
import sys
import tempfile

soa, struct = sys.argv[1], sys.argv[2]


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()


def read(path):
    with open(path, "rb") as f:
        return f.read()


with tempfile.TemporaryDirectory() as d:
    a, b, c, e = (os.path.join(d, n) for n in ("soa.json", "struct.json", "soa_by_struct.json", "struct_by_soa.json"))
    hashes = {run(soa, "write", a), run(struct, "write", b)}
    assert read(a) == read(b), "soa and struct layouts save the same world differently"
    hashes |= {run(struct, "load", a, c), run(soa, "load", b, e)}
    assert read(c) == read(a), "struct layout: load then save of the soa document differs"
    assert read(e) == read(b), "soa layout: load then save of the struct document differs"
    assert len(hashes) == 1, f"world_hash differs between layouts: {sorted(hashes)}"
    assert len(read(a)) > 10000, "the document is too small to test anything"
print("ok")
