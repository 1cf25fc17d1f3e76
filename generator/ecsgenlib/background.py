"""Checking a schema's structure and rendering it at the same time, on two cores.

The structure check (importing jsonschema and validating every file against
ecsgen.schema.json) takes about 0.15 s of a generator run's 0.4 s on a 100-component schema,
and every schema edit in a user's build waits for the generator before any compile starts.
So the render runs in a forked child over the schema loaded unchecked, while this process
checks; the child's result is taken only when the check passed. A schema the check refuses
gets the check's errors, as a sequential run gives, and its child is killed: what the child
did with unchecked input (a hostile size, a name of any length) is never seen or written.
Where fork is missing or fails, or threads run (a fork copies no thread), the two run one
after the other."""

import os
import pickle
import signal
import threading

from .errors import SCHEMA_PROBLEMS, SchemaError, SchemaErrors


def render_while_checking(work, check):
    """work(checked=False)'s result, made in a child process while this one runs check() (the
    part of work(checked=True) that checked=False skips); when check() raises, that, and the
    child's work is dropped. A SchemaError(s) the child's work
    raised is raised here; any other failure of the child reruns work(checked=True) here, so
    that its traceback shows as usual."""
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return work(checked=True)
    try:
        read_end, write_end = os.pipe()
    except OSError:  # no descriptors left: one after the other
        return work(checked=True)
    try:
        pid = os.fork()
    except OSError:  # no process to be had (a process limit, no memory): one after the other
        os.close(read_end)
        os.close(write_end)
        return work(checked=True)
    if pid == 0:
        os.close(read_end)
        _child(work, write_end)
    os.close(write_end)
    reaped = False
    try:
        with os.fdopen(read_end, "rb") as pipe:
            check()
            try:
                kind, value = pickle.load(pipe)
            except (EOFError, pickle.UnpicklingError):  # the child died before it could say
                kind, value = "failed", None
        _reap(pid)
        reaped = True
    finally:
        if not reaped:  # check() refused the schema (or this process was interrupted)
            _reap(pid, kill=True)
    if kind == "done":
        return value
    if kind == "schema":
        many, fields = value
        errors = [SchemaError(*f) for f in fields]
        raise SchemaErrors(errors) if many else errors[0]
    return work(checked=True)


def _reap(pid, kill=False):
    """Waits for the child (killing it first); a child already gone is no error (with SIGCHLD
    ignored, as a process may inherit it, the system reaps children itself)."""
    try:
        if kill:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass


def _child(work, write_end):
    """Runs work unchecked and sends its outcome down the pipe; never returns (os._exit: the
    parent's buffered output and exit handlers are the parent's)."""
    try:
        try:
            outcome = ("done", work(checked=False))
        except SCHEMA_PROBLEMS as e:
            many = isinstance(e, SchemaErrors)
            problems = e.errors if many else [e]
            outcome = ("schema", (many, [(p.file, p.path, p.message, p.hint) for p in problems]))
        except BaseException:  # the parent reruns the work itself
            outcome = ("failed", None)
        with os.fdopen(write_end, "wb") as pipe:
            pickle.dump(outcome, pipe, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        os._exit(0)
