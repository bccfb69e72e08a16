"""Every reader bounded by design, checked under an address-space limit (a subprocess with
``RLIMIT_AS``): the ARFF reader streams its file and parses a quoted value in constant memory
per character; the YAML reader refuses an alias bomb before anything walks it; a device is
refused and a pipe read once, never read without end or twice."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from threshold_choice import _files
from threshold_choice._yaml import YAMLLimitError, check_expanded_size, safe_load
from threshold_choice.datasets.arff import read_arff, read_arff_class
from threshold_choice.errors import UserError

LIMIT = 1_500 * 2**20  # address space of the limited subprocess (imports take ~0.4 GB)

#: 1.5 KB that expand to 9^9 = 387 million strings when walked
ALIAS_BOMB = "\n".join(
    [f"a: &a [{', '.join(['lol'] * 9)}]"]
    + [f"{x}: &{x} [{', '.join(['*' + p] * 9)}]"
       for p, x in zip("abcdefgh", "bcdefghi", strict=True)]
) + "\n"


def run_limited(code: str, limit: int = LIMIT) -> subprocess.CompletedProcess:
    """``code`` in a Python subprocess whose address space is at most ``limit`` bytes."""
    prelude = ("import resource\n"
               f"resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n")
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                          capture_output=True, text=True, env=os.environ)


def test_a_long_quoted_arff_value_is_read_in_memory_linear_in_its_length(tmp_path):
    path = tmp_path / "long.arff"
    # 20 MB: the former reader kept ~130 bytes of regex state per character (2.6 GB)
    path.write_text("@relation r\n@attribute s string\n@attribute c {a,b}\n@data\n'"
                    + "x\\'y" * 5_000_000 + "',a\n")
    proc = run_limited(f"""
        from threshold_choice.datasets.arff import read_arff
        _, table = read_arff({str(path)!r})
        print(len(table.columns[0].categories[0]))
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["15000000"]


def test_a_streamed_arff_file_reads_as_its_whole_text(tmp_path):
    from threshold_choice.datasets.arff import parse_arff

    text = ("@relation r\r\n@attribute 'a b' numeric\n@attribute c {x,'y z'}\n@data\n"
            "1,x\r\n\n% comment\n2,'y z'\x0c3,x\n")
    path = tmp_path / "t.arff"
    path.write_bytes(text.encode())
    streamed, whole = read_arff(path)[1], parse_arff(text)[1]
    assert [c.name for c in streamed.columns] == [c.name for c in whole.columns]
    for mine, theirs in zip(streamed.columns, whole.columns, strict=True):
        assert mine.values.tolist() == theirs.values.tolist()


def test_a_latin1_arff_file_is_still_read(tmp_path):
    path = tmp_path / "l.arff"
    path.write_bytes("@relation r\n@attribute c {caf\xe9,b}\n@data\ncaf\xe9\nb\n".encode("latin-1"))
    assert read_arff(path)[1].columns[0].categories == ("caf\xe9", "b")


def test_an_arff_device_is_refused_not_read_without_end():
    with pytest.raises(UserError, match="is a device, not a file"):
        read_arff_class(Path("/dev/zero"))


def test_an_arff_pipe_is_read_once(tmp_path):
    read, write = os.pipe()
    text = b"@relation r\n@attribute c {a,b}\n@data\na\nb\nb\n"
    threading.Thread(target=lambda: (os.write(write, text), os.close(write))).start()
    try:
        column = read_arff_class(Path(f"/dev/fd/{read}"))
    finally:
        os.close(read)
    assert column.labels == ["a", "b", "b"]


def test_a_named_pipe_no_one_writes_to_is_refused_not_waited_for(tmp_path, monkeypatch):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    monkeypatch.setattr(_files, "FIFO_WAIT", 0.2)
    with pytest.raises(UserError, match="pipe nothing was written to"):
        _files.read_special(fifo, "test file")


def test_a_file_larger_than_the_bound_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.csv"
    with open(path, "wb") as handle:
        handle.truncate(1000)
    with pytest.raises(UserError, match="has 1000 bytes, more than the 999 read"):
        _files.read_special(path, "test file", max_bytes=999)


def test_a_yaml_alias_bomb_is_refused_before_it_is_built():
    with pytest.raises(YAMLLimitError, match="72 aliases"):
        safe_load(ALIAS_BOMB)


def test_a_few_yaml_aliases_are_still_read():
    assert safe_load("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}


def test_an_alias_bomb_read_by_another_yaml_reader_is_refused_without_walking_it():
    import yaml

    data = yaml.safe_load(ALIAS_BOMB)  # shared lists: small until walked
    with pytest.raises(ValueError, match="expands to more than"):
        check_expanded_size(data, "config")


@pytest.mark.parametrize("registry", ["models", "datasets"])
def test_a_registry_with_an_alias_bomb_is_one_line_under_a_memory_limit(tmp_path, registry):
    path = tmp_path / "registry.yaml"
    path.write_text(ALIAS_BOMB)
    loader = {"models": "threshold_choice.models.registry:load_model_registry",
              "datasets": "threshold_choice.datasets:load_registry"}[registry]
    module, name = loader.split(":")
    proc = run_limited(f"""
        from pathlib import Path
        from {module} import {name}
        try:
            {name}(Path({str(path)!r}))
        except Exception as exc:
            print(type(exc).__name__, exc)
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "72 aliases" in proc.stdout and "\n" not in proc.stdout.strip()
