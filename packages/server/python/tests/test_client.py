"""The Python SDK against a real server (run by tests/cli/python.test.ts from a fresh venv holding the served wheel).

Environment: PORTAL_API and PORTAL_TOKEN (an API key of a new Enterprise account with one integration key),
PORTAL_TEST_EMAIL and PORTAL_TEST_PASSWORD (that account's owner), PORTAL_TEST_SILENT (a server that accepts and never
answers), PORTAL_TEST_CLOSED (a port nothing listens on), PORTAL_TEST_FAILING (a server answering 503),
PORTAL_TEST_DATA (a folder to write files in).
"""

import dataclasses
import datetime
import json
import os
import random
import subprocess
import sys
import time
import typing
import unittest

import portal_client
from portal_client import (
    AuthError,
    Client,
    ConflictError,
    NetworkError,
    NotFoundError,
    Pages,
    PortalError,
    RateLimitError,
    RunFailed,
    ServerError,
    UploadFailed,
    ValidationError,
)

DATA = os.environ.get("PORTAL_TEST_DATA", "")
MB = 1024 * 1024
TITLE_RULE = "Please enter the title between 1 and 60 characters long"


def path(name):
    return os.path.join(DATA, name)


def write_rows(name, rows, seed=7):
    """A .json table of `rows` rows: 3 inputs and a target that depends on them."""
    rnd = random.Random(seed)
    data = []
    for _ in range(rows):
        x = [rnd.random(), rnd.random(), rnd.random()]
        data.append(x + [x[0] + 2 * x[1] - x[2]])
    with open(path(name), "w") as fh:
        json.dump(data, fh)
    return path(name)


class Shared:
    """One project with a Ready upload and a finished fit, made once for the tests that read them."""

    client = None
    project = None
    upload = None
    run = None

    @classmethod
    def get(cls):
        if cls.client is None:
            cls.client = Client(poll_interval=0.2)
            cls.project = cls.client.project("Shared")
            cls.upload = cls.client.upload(cls.project, write_rows("shared.json", 200))
            cls.run = cls.client.fit(cls.project, cls.upload, inputs=3, outputs=5, target=1, wait=True, timeout=180)
        return cls


class A_FirstRunTest(unittest.TestCase):
    def test_installed_from_the_wheel_with_type_hints(self):
        # The tests exercise the served package, not the source tree.
        self.assertIn("site-packages", portal_client.__file__)
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(portal_client.__file__), "py.typed")))
        self.assertEqual(portal_client.__version__, "0.2.0")
        hints = typing.get_type_hints(Client.upload)
        self.assertEqual(hints["return"], portal_client.Upload)
        for name in portal_client.__all__:
            value = getattr(portal_client, name)
            if isinstance(value, type):
                self.assertTrue(value.__doc__, name + " has no docstring")
        for name, member in vars(Client).items():
            if not name.startswith("_") and callable(member):
                self.assertTrue(member.__doc__, "Client.%s has no docstring" % name)
                self.assertIn("return", typing.get_type_hints(member), "Client.%s has no return type" % name)

    def test_readme_tour_on_a_new_account(self):
        client = Client()
        self.assertEqual(list(client.projects()), [])
        project = client.project("Churn")
        self.assertIsInstance(project, portal_client.Project)
        self.assertEqual(project.name, "Churn")
        self.assertEqual(client.project("Churn").stamp, project.stamp)
        renamed = client.rename_project(project.stamp, "Churn v2")
        self.assertEqual((renamed.stamp, renamed.name), (project.stamp, "Churn v2"))
        self.assertEqual([p.name for p in client.projects()], ["Churn v2"])


class B_ObjectsTest(unittest.TestCase):
    def test_objects_carry_the_api_field_names_and_ids_or_objects_are_taken(self):
        s = Shared.get()
        c = s.client
        self.assertTrue(dataclasses.is_dataclass(s.upload))
        self.assertEqual(s.upload.flight, "Ready")
        self.assertEqual(s.upload.items[0].state, "Finished")
        self.assertEqual(s.upload.items[0].file.name, "shared.json")
        self.assertEqual(s.upload.items[0].meta.rows, 200)
        self.assertEqual((s.run.function, s.run.state, s.run.message), ("generate", "Finished", ""))
        self.assertTrue(s.run.fit)
        # An object or its id, wherever a method takes one.
        self.assertEqual(c.run(s.run).stamp, c.run(s.run.stamp).stamp)
        self.assertEqual([u.stamp for u in c.uploads(s.project)], [u.stamp for u in c.uploads(s.project.stamp)])
        self.assertIsInstance(s.project.createdAt, int)

    def test_objects_carry_the_names_people_use_beside_the_api_names(self):
        s = Shared.get()
        self.assertEqual((s.upload.id, s.upload.status), (s.upload.stamp, "Ready"))
        self.assertEqual((s.run.id, s.run.status), (s.run.stamp, s.run.state))
        self.assertEqual(s.upload.items[0].status, "Finished")
        self.assertEqual(s.project.id, s.project.stamp)
        created = s.project.created_at
        self.assertIsInstance(created, datetime.datetime)
        self.assertEqual(created.utcoffset(), datetime.timedelta(0))
        self.assertEqual(int(created.timestamp()), s.project.createdAt)
        self.assertEqual(s.client.uploads(s.project)[0].id, s.upload.id)
        # A project has no state, so no status; an id always reads the same as the API's.
        self.assertFalse(hasattr(s.project, "status"))


class C_ErrorsTest(unittest.TestCase):
    def test_every_kind_is_a_portal_error(self):
        for kind in (
            AuthError,
            NotFoundError,
            ValidationError,
            ConflictError,
            RateLimitError,
            ServerError,
            NetworkError,
            RunFailed,
            UploadFailed,
        ):
            self.assertTrue(issubclass(kind, PortalError), kind)

    def test_a_wrong_key_is_an_auth_error(self):
        with self.assertRaises(AuthError) as caught:
            list(Client(token="pk_wrong").projects())
        self.assertEqual((str(caught.exception), caught.exception.status), ("Invalid API key", 401))

    def test_a_missing_run_is_not_found_and_a_bad_title_carries_the_rule(self):
        client = Client()
        with self.assertRaises(NotFoundError):
            client.run("n_does_not_exist")
        with self.assertRaises(ValidationError) as caught:
            client.create_project("   ")
        self.assertEqual(str(caught.exception), TITLE_RULE)
        with self.assertRaises(ValidationError) as caught:
            client.create_project("x" * 61)
        self.assertEqual(str(caught.exception), TITLE_RULE)

    def test_a_conflict_is_a_conflict_error(self):
        s = Shared.get()
        # A Ready upload takes no more files: the server refuses, and so does resuming it.
        with self.assertRaises(ConflictError):
            s.client._register(s.upload.stamp, "more.json", 10, "0" * 64)
        with self.assertRaises(ConflictError) as caught:
            s.client.upload(s.project, path("shared.json"), resume=s.upload)
        self.assertIn("is Ready: there is nothing to continue", str(caught.exception))

    def test_a_failed_request_raises_run_failed_with_its_message(self):
        client = Client(poll_interval=0.2)
        project = client.project("Failing")
        upload = client.upload(project, write_rows("three.json", 3))
        with self.assertRaises(RunFailed) as caught:
            client.fit(project, upload, inputs=3, outputs=5, wait=True, timeout=120)
        self.assertIn("training needs at least 5", str(caught.exception))
        self.assertEqual(caught.exception.run.state, "Failed")
        self.assertEqual(str(caught.exception), caught.exception.run.message)

    def test_a_damaged_upload_raises_upload_failed_naming_the_row(self):
        client = Client(poll_interval=0.2)
        with open(path("bad.json"), "w") as fh:
            fh.write("[[1, 2, 3, 4], [5, 6]]")
        with self.assertRaises(UploadFailed) as caught:
            client.upload(client.project("Failing"), path("bad.json"))
        self.assertEqual(str(caught.exception), "Row 2 has 2 values; expected 4.")
        self.assertEqual(caught.exception.upload.flight, "Failed")

    def test_a_silent_server_times_out(self):
        client = Client(token="pk_x", base_url=os.environ["PORTAL_TEST_SILENT"], client="c_x", timeout=1)
        started = time.monotonic()
        with self.assertRaises(NetworkError) as caught:
            list(client.projects())
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual(caught.exception.code, "timeout")
        self.assertEqual(
            str(caught.exception),
            "No answer from %s: timed out after 1 s. Try again, or allow longer with timeout= or PORTAL_TIMEOUT."
            % os.environ["PORTAL_TEST_SILENT"],
        )

    def test_a_closed_port_cannot_be_reached(self):
        client = Client(token="pk_x", base_url=os.environ["PORTAL_TEST_CLOSED"], client="c_x")
        with self.assertRaises(NetworkError) as caught:
            list(client.projects())
        self.assertIn("Cannot reach %s (connection refused)" % os.environ["PORTAL_TEST_CLOSED"], str(caught.exception))

    def test_reads_are_retried_writes_are_not_then_a_server_error(self):
        client = Client(token="pk_x", base_url=os.environ["PORTAL_TEST_FAILING"], client="c_x")
        with self.assertRaises(ServerError) as caught:
            list(client.projects())
        self.assertEqual(str(caught.exception), "Server error 503: Down for maintenance. Try again later.")
        with self.assertRaises(ServerError):
            client.create_project("x")

    def test_an_api_key_may_not_read_billing(self):
        with self.assertRaises(AuthError) as caught:
            Client().billing()
        self.assertEqual(str(caught.exception), "API keys cannot make this call; sign in instead.")


class D_UploadsTest(unittest.TestCase):
    def test_several_files_make_one_upload_with_progress_across_them(self):
        client = Client(poll_interval=0.2)
        project = client.project("Uploads")
        a, b = write_rows("a.json", 50, seed=1), write_rows("b.json", 80, seed=2)
        total = os.path.getsize(a) + os.path.getsize(b)
        calls = []
        upload = client.upload(project, [a, b], progress=lambda sent, of: calls.append((sent, of)))
        self.assertEqual((upload.name, upload.flight), ("a.json (+1 more)", "Ready"))
        self.assertEqual(sorted(i.file.name for i in upload.items), ["a.json", "b.json"])
        self.assertEqual(calls[-1], (total, total))
        self.assertEqual([s for s, _ in calls], sorted(s for s, _ in calls))
        self.assertTrue(all(of == total for _, of in calls))

    def test_a_tqdm_bar_is_shown_when_tqdm_is_installed_and_no_callback_is_given(self):
        fake = path("fake_tqdm")
        os.makedirs(os.path.join(fake, "tqdm"), exist_ok=True)
        with open(os.path.join(fake, "tqdm", "__init__.py"), "w") as fh:
            fh.write("")
        with open(os.path.join(fake, "tqdm", "auto.py"), "w") as fh:
            fh.write(
                "bars = []\n"
                "class tqdm:\n"
                "    def __init__(self, total, **kw):\n"
                "        self.total, self.n, self.closed = total, 0, False\n"
                "        bars.append(self)\n"
                "    def update(self, n):\n"
                "        self.n += n\n"
                "    def close(self):\n"
                "        self.closed = True\n"
            )
        sys.path.insert(0, fake)
        try:
            import tqdm.auto as bars

            client = Client(poll_interval=0.2)
            file = write_rows("bar.json", 40, seed=3)
            client.upload(client.project("Uploads"), file, wait=False)
            bar = bars.bars[-1]
            self.assertEqual((bar.total, bar.n, bar.closed), (os.path.getsize(file),) * 2 + (True,))
        finally:
            sys.path.remove(fake)
            for name in ("tqdm.auto", "tqdm"):
                sys.modules.pop(name, None)

    def test_an_upload_cut_off_is_resumed_sending_only_what_did_not_arrive(self):
        client = Client(poll_interval=0.2)
        project = client.project("Resume")
        first = write_rows("first.json", 30, seed=4)
        second = write_rows("second.json", 60000, seed=5)  # a few MB: cut off in the middle of its bytes
        size1, size2 = os.path.getsize(first), os.path.getsize(second)
        self.assertGreater(size2, 2 * MB)

        class Cut(Exception):
            pass

        def cut(sent, total):
            if sent > size1 + MB:
                raise Cut()

        with self.assertRaises(Cut):
            client.upload(project, [first, second], progress=cut)
        [pending] = client.uploads(project)
        self.assertEqual(pending.flight, "Pending")
        calls = []
        resumed = client.upload(project, [first, second], resume=True, progress=lambda s, t: calls.append(s))
        self.assertEqual((resumed.stamp, resumed.flight), (pending.stamp, "Ready"))
        self.assertEqual(len(resumed.items), 2)
        # The first file had arrived: it counts at once, and only the second is sent again.
        self.assertEqual(calls[0], size1)
        self.assertEqual(calls[-1], size1 + size2)
        with self.assertRaises(NotFoundError):
            client.upload(project, [first], resume=True)

    def test_memory_stays_flat_for_a_300_mb_file_and_100_mb_sent(self):
        # A fresh interpreter, so its peak resident memory is the upload's own. The files are sparse (no disk writes).
        big = path("big.json")
        with open(big, "wb") as fh:
            fh.truncate(300 * MB)
        parts = []
        for i in range(10):
            parts.append(path("part-%d.npy" % i))
            with open(parts[-1], "wb") as fh:
                fh.truncate(10 * MB)
        script = (
            "import json, sys\n"
            "from portal_client import Client, ValidationError\n"
            "def kb(field):\n"
            "    with open('/proc/self/status') as fh:\n"
            "        return int(next(l for l in fh if l.startswith(field)).split()[1])\n"
            "def reset_peak():\n"
            "    with open('/proc/self/clear_refs', 'w') as fh:\n"
            "        fh.write('5')  # the peak (VmHWM) starts again from the resident size\n"
            "c = Client(poll_interval=0.2)\n"
            "p = c.project('Big files')\n"
            "reset_peak()\n"
            "base = kb('VmRSS')\n"
            "try:\n"
            "    c.upload(p, sys.argv[1])\n"
            "    refused = None\n"
            "except ValidationError as e:\n"
            "    refused = str(e)\n"
            "seen = []\n"
            "up = c.upload(p, sys.argv[2:], wait=False, progress=lambda s, t: seen.append(s))\n"
            "growth = kb('VmHWM') - base\n"
            "reset_peak()\n"
            "base = kb('VmRSS')\n"
            "held = b'x' * (80 * 1024 * 1024)  # the control: 80 MB held does show in the measure\n"
            "control = kb('VmHWM') - base\n"
            "print(json.dumps({'growth_kb': growth, 'control_kb': control, 'refused': refused, 'sent': seen[-1],\n"
            "    'states': sorted(set(i.state for i in up.items)), 'sizes': [i.file.size for i in up.items]}))\n"
        )
        out = subprocess.run([sys.executable, "-c", script, big] + parts, capture_output=True, text=True, timeout=300)
        self.assertEqual(out.returncode, 0, out.stderr)
        result = json.loads(out.stdout)
        # The plan's per-file limit refuses the 300 MB file once it is hashed, before any byte is sent.
        self.assertEqual(
            result["refused"],
            "One or more files exceed the max size limit. The Enterprise plan allows files up to 10 MB.",
        )
        self.assertEqual(result["sent"], 100 * MB)
        self.assertEqual(result["sizes"], [10 * MB] * 10)
        self.assertNotIn("Pending", result["states"])
        self.assertGreater(result["control_kb"], 64 * 1024)
        self.assertLess(result["growth_kb"], 64 * 1024, "peak RSS grew by %d KB" % result["growth_kb"])
        sys.stderr.write("(peak RSS growth while hashing 400 MB and sending 100 MB: %d KB) " % result["growth_kb"])


class E_RequestsTest(unittest.TestCase):
    def test_runs_models_generate_and_download(self):
        s = Shared.get()
        c = s.client
        runs = c.runs(s.project)
        self.assertIsInstance(runs, Pages)
        self.assertIn(s.run.stamp, [r.stamp for r in runs])
        self.assertEqual({r.function for r in runs}, {"fit", "generate"})
        fits = list(c.runs(s.project, function="fit"))
        self.assertIn(s.run.fit, [r.stamp for r in fits])
        self.assertEqual({r.function for r in fits}, {"fit"})
        models = c.models(s.project)
        self.assertTrue(models and all(isinstance(m, portal_client.Model) for m in models))
        model = [m for m in models if m.state == "Finished"][-1]  # newest first: the shared fit's model is the oldest
        self.assertEqual(model.rend.stamp, s.upload.stamp)
        # Reusing the model: no training, a generate request with it.
        again = c.generate(s.project, s.upload, model, wait=True, timeout=120)
        self.assertEqual((again.function, again.state), ("generate", "Finished"))
        reused = c.fit(s.project, s.upload, model=model, wait=True, timeout=120)
        self.assertEqual(reused.function, "generate")
        for general in c.general_models():
            self.assertIsInstance(general, portal_client.Model)
        out = c.download(again, path("embeddings.json"))
        with open(out) as fh:
            embeddings = json.load(fh)["embeddings"]
        self.assertEqual((len(embeddings), len(embeddings[0])), (200, 5))
        self.assertFalse(os.path.exists(out + ".part"))

    def test_a_csv_is_uploaded_as_a_json_table_with_its_text_and_empty_cells(self):
        c = Shared.get().client
        project = c.project("Tables")
        with open(path("plants.csv"), "w") as fh:
            fh.write("height,colour,ok,label\n1.5,red,true,setosa\n2,blue,FALSE,versicolor\n,red,,setosa\n4.25,,true,virginica\n")
        upload = c.upload(project, path("plants.csv"))
        self.assertEqual(upload.notes, ["plants.csv is uploaded as a JSON table (plants.json)"])
        self.assertEqual((upload.flight, upload.items[0].file.name), ("Ready", "plants.json"))
        preview = c.preview(upload)
        self.assertEqual(
            [(col.name, col.type, col.missing) for col in preview.columns],
            [("height", "number", 1), ("colour", "category", 1), ("ok", "boolean", 1), ("label", "category", 0)],
        )
        self.assertEqual(preview.rows[0], [1.5, "red", True, "setosa"])
        with open(path("ragged.csv"), "w") as fh:
            fh.write("a,b\n1,2\n3,4,5\n")
        with self.assertRaises(ValidationError) as err:
            c.upload(project, path("ragged.csv"))
        self.assertEqual(str(err.exception), "ragged.csv row 3 has 3 values but the header names 2 columns")

    def test_a_fit_by_column_names_learns_the_label_and_reports_its_held_out_accuracy(self):
        c = Shared.get().client
        project = c.project("Flowers")
        rnd = random.Random(3)
        lines = ["f1,f2,f3,label,f4"]
        for _ in range(600):
            f = [rnd.random(), rnd.random(), rnd.random()]
            label = "virginica" if f[0] + f[1] > 1.2 else "versicolor" if f[0] > 0.5 else "setosa"
            lines.append("%.4f,%.4f,%.4f,%s,%.3f" % (f[0], f[1], f[2], label, rnd.random() * 10))
        with open(path("flowers.csv"), "w") as fh:
            fh.write("\n".join(lines) + "\n")
        upload = c.upload(project, path("flowers.csv"))
        run = c.fit(project, upload, target="label", inputs=["f1", "f2", "f3"], wait=True, timeout=300)
        fit = c.run(run.fit)
        self.assertEqual((fit.state, fit.metrics.name, fit.metrics.rows), ("Finished", "accuracy", 120))
        self.assertGreater(fit.metrics.value, 0.9)
        with self.assertRaises(ValidationError) as err:
            c.fit(project, upload, target="label", inputs=["f1", "petal"], task="classification")
        self.assertIn('The upload has no column "petal"', str(err.exception))

    def test_events_follow_a_running_request_to_its_end(self):
        s = Shared.get()
        c = s.client
        # Enough rows that training takes a while, so the events are followed while it runs.
        upload = c.upload(s.project, write_rows("followed.json", 4000, seed=11))
        run = c.fit(s.project, upload, inputs=3, outputs=5, name="Followed")
        self.assertFalse(run.done)
        events = []
        started = time.monotonic()
        for event in c.events(run.fit, follow=True):
            events.append((event.kind, event.data, c.run(run.fit).done if not events else None))
        self.assertTrue(c.run(run.fit).done)
        sys.stderr.write("(followed %d events over %.1f s) " % (len(events), time.monotonic() - started))
        # The first event came while the training was still going, and the log ends with the final state.
        self.assertIs(events[0][2], False)
        kinds = [k for k, _, _ in events]
        self.assertIn("progress", kinds)
        self.assertEqual([d for k, d, _ in events if k == "state"][-1], {"state": "Finished"})
        # Without follow: the log as it is, at once.
        self.assertEqual(len(list(c.events(run.fit))), len(events))
        c.wait(run, timeout=120)

    def test_pages_follow_next_and_work_without_it(self):
        pages = {None: ([1, 2], "b"), "b": ([3], "c"), "c": ([4], None)}
        asked = []

        def fetch(cursor):
            asked.append(cursor)
            return pages[cursor]

        listing = Pages(fetch)
        self.assertEqual(next(iter(listing)), 1)
        self.assertEqual(asked, [None])
        self.assertEqual(list(listing), [1, 2, 3, 4])
        self.assertEqual((len(listing), listing[-1], asked), (4, 4, [None, "b", "c"]))
        self.assertEqual(Pages(lambda cursor: ([7], None)), [7])

    def test_shrink_makes_a_quote(self):
        client = Client(poll_interval=0.2)
        project = client.project("Shrink")
        with open(path("model.py"), "w") as fh:
            fh.write(
                "import torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n"
                "        super().__init__()\n        self.fc = nn.Linear(100, 10)\n"
            )
        upload = client.upload(project, path("model.py"))
        quote = client.shrink(project, upload, name="Smaller", desc="For the edge")
        self.assertEqual((quote.function, quote.name, quote.rend.stamp), ("shrink", "Smaller", upload.stamp))
        self.assertEqual(client.quote(quote).stamp, quote.stamp)


class F_AccountTest(unittest.TestCase):
    def test_billing_usage_and_integrations_for_a_signed_in_user(self):
        Shared.get()
        user = Client.login(os.environ["PORTAL_TEST_EMAIL"], os.environ["PORTAL_TEST_PASSWORD"])
        self.assertFalse(user.token.startswith("pk_"))
        billing = user.billing()
        self.assertGreater(float(billing.creditBalance), 0)
        self.assertGreater(float(billing.creditConsumed), 0)
        usage = user.usage(days=7)
        self.assertEqual(len(usage.days), 7)
        self.assertGreaterEqual(usage.totals.fits, 1)
        with self.assertRaises(ValidationError) as caught:
            user.usage(days=500)
        self.assertIn("days must be from 1 to 400", str(caught.exception))
        # A refused file leaves nothing behind for a signed-in user (an API key may not remove uploads).
        project = user.project("Refusals")
        with open(path("notes.xlsx"), "w") as fh:
            fh.write("a,b\n1,2\n")
        with self.assertRaises(ValidationError) as caught:
            user.upload(project, path("notes.xlsx"))
        self.assertTrue(str(caught.exception).startswith("Invalid file type. Allowed: .json"), str(caught.exception))
        self.assertEqual(user.uploads(project), [])
        self.assertIn("Smaller", [q.name for q in user.quotes()])
        [key] = user.integrations()
        self.assertEqual(key.name, "Embeddings")
        self.assertIsInstance(key.runs, int)
        self.assertTrue(key.runAt is None or isinstance(key.runAt, int))


class G_ReadmeTest(unittest.TestCase):
    def test_the_readme_tour_runs_as_shown(self):
        # The README the wheel carries (its description), first Python block, with this server's key and address.
        from importlib.metadata import metadata

        readme = metadata("portal_client").get_payload()  # type: ignore[attr-defined]
        tour = readme.split("```python\n", 1)[1].split("```", 1)[0]
        shown = 'Client(token="pk_...", base_url="http://localhost:8080")'
        self.assertIn(shown, tour)
        write_rows("data.json", 60, seed=9)
        cwd = os.getcwd()
        os.chdir(DATA)
        try:
            exec(tour.replace(shown, "Client(poll_interval=0.2)"), {})
            with open("embeddings.json") as fh:
                self.assertEqual(len(json.load(fh)["embeddings"]), 60)
        finally:
            os.chdir(cwd)


class Z_RateLimitTest(unittest.TestCase):
    # Last: it spends the sign-in attempts of this address for a minute.
    def test_too_many_sign_ins_raise_a_rate_limit_error_with_the_wait(self):
        for _ in range(200):
            try:
                Client.login(os.environ["PORTAL_TEST_EMAIL"], "Wrong-password-1!")
            except RateLimitError as err:
                self.assertEqual(err.status, 429)
                self.assertIsNotNone(err.retry_after)
                self.assertGreater(err.retry_after, 0)
                return
            except AuthError:
                continue
        self.fail("The server never limited the sign-ins")


if __name__ == "__main__":
    unittest.main(verbosity=2)
