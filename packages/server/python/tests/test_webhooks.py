"""Webhooks in the Python SDK (run by tests/cli/webhooks.test.ts from a fresh venv holding the served wheel):
`verify_webhook` on its own and on a delivery signed by the Standard Webhooks library, then an account's endpoints
managed against a real server that delivers to a receiver this test runs.

Environment: PORTAL_API; PORTAL_TEST_EMAIL and PORTAL_TEST_PASSWORD (an account's owner); PORTAL_TEST_SIGNED (JSON:
a body, its headers and secret as the Standard Webhooks library signed them). The server allows private addresses.
"""

import base64
import http.server
import json
import os
import threading
import time
import unittest

import portal_client
from portal_client import (
    AuthError,
    Client,
    NotFoundError,
    ValidationError,
    WebhookVerificationError,
    sign_webhook,
    verify_webhook,
)

SECRET = "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
BODY = b'{"type":"run.finished","timestamp":"2026-11-28T12:00:00.000Z","data":{"id":"r_1"}}'


class A_VerifyTest(unittest.TestCase):
    def test_a_signed_delivery_is_its_event(self):
        headers = sign_webhook(BODY, SECRET, "msg_1")
        self.assertEqual(verify_webhook(BODY, headers, SECRET)["type"], "run.finished")
        # Any case of header names, a list of pairs, a str body.
        upper = [(k.upper(), v) for k, v in headers.items()]
        self.assertEqual(verify_webhook(BODY.decode(), upper, SECRET)["data"], {"id": "r_1"})

    def test_any_of_several_signatures_may_match(self):
        headers = sign_webhook(BODY, SECRET, "msg_1")
        other = "v1," + base64.b64encode(b"x" * 32).decode()
        headers["webhook-signature"] = other + " " + headers["webhook-signature"] + " v2,whatever"
        self.assertEqual(verify_webhook(BODY, headers, SECRET)["type"], "run.finished")

    def test_a_changed_body_a_wrong_secret_or_a_missing_header_is_refused(self):
        headers = sign_webhook(BODY, SECRET, "msg_1")
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(BODY.replace(b"r_1", b"r_2"), headers, SECRET)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(BODY, headers, "whsec_" + base64.b64encode(b"another secret").decode())
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(BODY, {k: v for k, v in headers.items() if k != "webhook-id"}, SECRET)
        with self.assertRaises(ValueError):
            verify_webhook(BODY, headers, "not a secret!")
        # A portal error like the others.
        self.assertTrue(issubclass(WebhookVerificationError, portal_client.PortalError))

    def test_a_timestamp_older_than_five_minutes_or_ahead_is_refused(self):
        now = int(time.time())
        old = sign_webhook(BODY, SECRET, "msg_1", timestamp=now - 301)
        with self.assertRaisesRegex(WebhookVerificationError, "too old"):
            verify_webhook(BODY, old, SECRET)
        ahead = sign_webhook(BODY, SECRET, "msg_1", timestamp=now + 301)
        with self.assertRaisesRegex(WebhookVerificationError, "future"):
            verify_webhook(BODY, ahead, SECRET)
        recent = sign_webhook(BODY, SECRET, "msg_1", timestamp=now - 290)
        self.assertEqual(verify_webhook(BODY, recent, SECRET)["type"], "run.finished")

    def test_what_the_standard_webhooks_library_signed(self):
        signed = json.loads(os.environ["PORTAL_TEST_SIGNED"])
        event = verify_webhook(signed["body"].encode(), signed["headers"], signed["secret"])
        self.assertEqual(event["type"], "webhook.test")


class Receiver(http.server.BaseHTTPRequestHandler):
    """Answers each POST with the next status of `statuses` (then 200) and keeps what it got."""

    got = []
    statuses = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        Receiver.got.append((body, dict(self.headers.items())))
        status = Receiver.statuses.pop(0) if Receiver.statuses else 200
        self.send_response(status)
        self.send_header("content-type", "text/plain")
        self.end_headers()
        self.wfile.write(("answer %d" % status).encode())

    def log_message(self, *args):
        pass


def wait_for(what, check, timeout=60):
    end = time.time() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.time() > end:
            raise AssertionError("Timed out waiting for " + what)
        time.sleep(0.2)


class B_EndpointsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.url = "http://127.0.0.1:%d/hooks" % cls.server.server_address[1]
        cls.client = Client.login(os.environ["PORTAL_TEST_EMAIL"], os.environ["PORTAL_TEST_PASSWORD"])

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()

    def test_an_endpoint_receives_a_test_event_it_verifies_is_retried_after_a_500_and_is_logged(self):
        c = self.client
        endpoint = c.create_webhook(self.url, ["run.finished", "run.failed"], name="Python receiver")
        self.assertIsInstance(endpoint, portal_client.WebhookEndpoint)
        self.assertTrue(endpoint.secret.startswith("whsec_"))
        self.assertEqual((endpoint.name, endpoint.status), ("Python receiver", "active"))
        self.assertEqual(endpoint.events, ["run.finished", "run.failed"])
        self.assertIsNone(c.webhook(endpoint).secret)
        self.assertIn(endpoint.id, [e.id for e in c.webhooks()])

        Receiver.statuses = [500]
        sent = c.test_webhook(endpoint)
        self.assertEqual(sent.type, "webhook.test")
        body, headers = wait_for("two attempts", lambda: len(Receiver.got) >= 2 and Receiver.got[1])
        event = verify_webhook(body, headers, endpoint.secret)
        self.assertEqual(event["type"], "webhook.test")
        # The same webhook-id on each attempt.
        self.assertEqual({h["webhook-id"] for _, h in Receiver.got[:2]}, {sent.stamp})

        done = wait_for("the delivery", lambda: (lambda d: d if d.status == "delivered" else None)(c.delivery(sent)))
        self.assertEqual([t.status for t in done.tries], [500, 200])
        self.assertEqual(done.tries[0].answer, "answer 500")
        self.assertGreaterEqual(done.tries[1].durationMs, 0)
        self.assertEqual(json.loads(done.body)["type"], "webhook.test")
        self.assertEqual([d.stamp for d in c.deliveries(endpoint)][:1], [sent.stamp])

        again = c.redeliver(sent)
        self.assertEqual(again.stamp, sent.stamp)
        wait_for("the redelivery", lambda: len(Receiver.got) >= 3)
        self.assertEqual(Receiver.got[2][1]["webhook-id"], sent.stamp)

        rotated = c.rotate_webhook(endpoint)
        self.assertNotEqual(rotated.secret, endpoint.secret)
        paused = c.update_webhook(endpoint, name="Paused receiver", active=False)
        self.assertEqual((paused.name, paused.status), ("Paused receiver", "paused"))
        self.assertEqual(c.update_webhook(endpoint, active=True).status, "active")
        c.remove_webhook(endpoint)
        with self.assertRaises(NotFoundError):
            c.webhook(endpoint)

    def test_refusals_say_what_to_fix(self):
        with self.assertRaises(ValidationError):
            self.client.create_webhook("ftp://example.com", ["run.finished"])
        with self.assertRaises(ValidationError):
            self.client.create_webhook("https://example.com/hooks", ["run.done"])
        with self.assertRaises((NotFoundError, AuthError)):
            self.client.webhook("w_not_there")


if __name__ == "__main__":
    unittest.main(verbosity=2)
