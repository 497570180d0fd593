"""The Python client against a real server (run by tests/cli/python.test.ts from a fresh venv holding the served wheel).

Environment: PORTAL_API and PORTAL_TOKEN (a fresh account's API key), PORTAL_TEST_SILENT (a server that accepts and
never answers), PORTAL_TEST_CLOSED (a port nothing listens on), PORTAL_TEST_FAILING (a server answering 503),
PORTAL_TEST_DATA (a folder to write files in).
"""

import json
import os
import time
import unittest

import portal_client
from portal_client import Client, PortalError


class ClientTest(unittest.TestCase):
    def test_installed_from_the_wheel(self):
        # The tests exercise the served package, not the source tree.
        self.assertIn("site-packages", portal_client.__file__)

    def test_readme_example_on_a_fresh_account(self):
        client = Client()
        self.assertEqual(client.projects(), [])
        project = client.project("Churn")["stamp"]
        self.assertEqual(client.project("Churn")["stamp"], project)
        renamed = client.rename_project(project, "Churn v2")
        self.assertEqual(renamed["name"], "Churn v2")
        path = os.path.join(os.environ["PORTAL_TEST_DATA"], "data.json")
        with open(path, "w") as fh:
            json.dump([[i * 0.1, i * 0.2, i * 0.3, float(i % 2)] for i in range(30)], fh)
        upload = client.upload(project, path)
        run = client.fit(project, upload, inputs=3, outputs=5, target=1, task="regression")
        client.wait(run, timeout=120)
        out = client.download(run, os.path.join(os.environ["PORTAL_TEST_DATA"], "embeddings.json"))
        with open(out) as fh:
            self.assertEqual(len(json.load(fh)["embeddings"]), 30)

    def test_a_wrong_key_says_so(self):
        with self.assertRaises(PortalError) as caught:
            Client(token="pk_wrong").projects()
        self.assertEqual(str(caught.exception), "Invalid API key")
        self.assertEqual(caught.exception.status, 401)

    def test_a_silent_server_times_out(self):
        client = Client(token="pk_x", base_url=os.environ["PORTAL_TEST_SILENT"], client="c_x", timeout=1)
        started = time.monotonic()
        with self.assertRaises(PortalError) as caught:
            client.projects()
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual(
            str(caught.exception),
            "No answer from %s: timed out after 1 s. Try again, or allow longer with timeout= or PORTAL_TIMEOUT."
            % os.environ["PORTAL_TEST_SILENT"],
        )

    def test_a_closed_port_cannot_be_reached(self):
        client = Client(token="pk_x", base_url=os.environ["PORTAL_TEST_CLOSED"], client="c_x")
        with self.assertRaises(PortalError) as caught:
            client.projects()
        self.assertIn("Cannot reach %s (connection refused)" % os.environ["PORTAL_TEST_CLOSED"], str(caught.exception))

    def test_reads_are_retried_writes_are_not(self):
        client = Client(token="pk_x", base_url=os.environ["PORTAL_TEST_FAILING"], client="c_x")
        with self.assertRaises(PortalError) as caught:
            client.projects()
        self.assertEqual(str(caught.exception), "Server error 503: Down for maintenance. Try again later.")
        with self.assertRaises(PortalError):
            client.create_project("x")


if __name__ == "__main__":
    unittest.main(verbosity=2)
