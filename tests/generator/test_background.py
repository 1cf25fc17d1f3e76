#!/usr/bin/env python3
"""The render beside the structure check (generator/ecsgenlib/background.py): the check's
refusal wins and stops the child, the child's schema errors and results come back as they
were raised and returned, a child that fails otherwise is rerun in process, SIGCHLD ignored
changes nothing, and with a thread running, or a fork refused, nothing forks."""

import os
import signal
import sys
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "generator"))

from ecsgenlib.background import render_while_checking  # noqa: E402
from ecsgenlib.errors import SchemaError, SchemaErrors  # noqa: E402


def passes():
    pass


def refuses():
    raise SchemaErrors([SchemaError("game.json", "components.pos", "refused by the check")])


class RenderWhileCheckingTest(unittest.TestCase):
    def test_the_childs_result_when_the_check_passes(self):
        calls = []

        def work(checked):
            calls.append(checked)
            return {"game_ecs.h": "text \udcff"}, [os.getpid()]

        result, (child_pid,) = render_while_checking(work, passes)
        self.assertEqual(result, {"game_ecs.h": "text \udcff"})
        self.assertNotEqual(child_pid, os.getpid())  # made in the child
        self.assertEqual(calls, [])  # never in this process

    def test_the_checks_errors_win_and_the_child_is_stopped(self):
        def endless(checked):
            while True:  # what unchecked input might do
                time.sleep(0.01)

        start = time.monotonic()
        with self.assertRaises(SchemaErrors) as caught:
            render_while_checking(endless, refuses)
        self.assertEqual(str(caught.exception), "game.json: components.pos: refused by the check")
        self.assertLess(time.monotonic() - start, 10)
        with self.assertRaises(ChildProcessError):  # reaped: no child left behind
            os.waitpid(-1, os.WNOHANG)

    def test_the_childs_schema_errors_keep_their_class_and_text(self):
        def one(checked):
            raise SchemaError("game.json", "queries.q", "unknown component 'pos'", "did you mean 'position'?")

        def two(checked):
            raise SchemaErrors([SchemaError("a.json", "x", "first"), SchemaError("a.json", "", "second", "hint")])

        with self.assertRaises(SchemaError) as caught:
            render_while_checking(one, passes)
        self.assertEqual((caught.exception.file, caught.exception.path, caught.exception.hint),
                         ("game.json", "queries.q", "did you mean 'position'?"))
        self.assertEqual(str(caught.exception),
                         "game.json: queries.q: unknown component 'pos' (did you mean 'position'?)")
        with self.assertRaises(SchemaErrors) as caught:
            render_while_checking(two, passes)
        self.assertEqual(str(caught.exception), "a.json: x: first\na.json: second (hint)")

    def test_a_child_failing_otherwise_is_rerun_here(self):
        def work(checked):
            if not checked:
                raise RuntimeError("only in the child")
            return "made here", os.getpid()

        self.assertEqual(render_while_checking(work, passes), ("made here", os.getpid()))

        def dies(checked):
            if not checked:
                os._exit(3)  # no word down the pipe
            return "made here"

        self.assertEqual(render_while_checking(dies, passes), "made here")

    def test_with_sigchld_ignored(self):
        """A process may inherit SIGCHLD ignored: the system then reaps the child itself, and
        waiting for it finds none."""
        before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
        try:
            self.assertEqual(render_while_checking(lambda checked: ("done", checked), passes), ("done", False))
            with self.assertRaises(SchemaErrors):
                render_while_checking(lambda checked: time.sleep(60), refuses)
        finally:
            signal.signal(signal.SIGCHLD, before)

    def test_a_failed_fork_runs_both_here(self):
        real_fork = os.fork

        def no_fork():
            raise BlockingIOError(11, "Resource temporarily unavailable")

        os.fork = no_fork
        try:
            self.assertEqual(render_while_checking(lambda checked: (checked, os.getpid()), refuses),
                             (True, os.getpid()))
        finally:
            os.fork = real_fork

    def test_with_a_thread_running_nothing_forks(self):
        stop = threading.Event()
        thread = threading.Thread(target=stop.wait)
        thread.start()
        try:
            self.assertEqual(render_while_checking(lambda checked: (checked, os.getpid()), refuses),
                             (True, os.getpid()))  # the work checks in process: check() is its part
        finally:
            stop.set()
            thread.join()


if __name__ == "__main__":
    unittest.main()
