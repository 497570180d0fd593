"""client.preview(upload) against a real server (run by tests/cli/preview-python.test.ts from a fresh venv holding
the served wheel). Environment: PORTAL_API, PORTAL_TOKEN (an API key), PORTAL_TEST_DATA (a folder to write in)."""

import json
import os
import unittest

from portal_client import Client, Preview

DATA = os.environ.get("PORTAL_TEST_DATA", "")
MODEL = "import torch.nn as nn\n\nmodel = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 2))\n"


def write(name, text):
    p = os.path.join(DATA, name)
    with open(p, "w") as fh:
        fh.write(text)
    return p


class PreviewTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = Client(poll_interval=0.2)
        cls.project = cls.client.project("Previews")

    def test_a_table_has_rows_and_columns_with_their_statistics(self):
        rows = [[i, i / 2, 1] for i in range(150)]
        upload = self.client.upload(self.project, write("t.json", json.dumps(rows)), wait=True)
        p = self.client.preview(upload)
        self.assertIsInstance(p, Preview)
        self.assertEqual(p.kind, "table")
        self.assertEqual(len(p.rows), 100)
        self.assertEqual(p.rows[4], [4, 2, 1])
        self.assertEqual(p.totalRows, 150)
        first = p.columns[0]
        self.assertEqual((first.type, first.min, first.max, first.mean, first.missing), ("integer", 0, 149, 74.5, 0))
        self.assertEqual(sum(first.histogram), 150)
        # A file's own id gives the same preview.
        self.assertEqual(self.client.preview(upload.items[0]).rows, p.rows)

    def test_a_txt_table_counts_missing_values(self):
        upload = self.client.upload(self.project, write("t.txt", "a b\n1 nan\n2 4\n"), wait=True)
        p = self.client.preview(upload)
        self.assertEqual([c.name for c in p.columns], ["a", "b"])
        self.assertEqual(p.columns[1].missing, 1)
        self.assertEqual(p.rows[0], [1, None])

    def test_a_model_file_has_layers_and_parameters(self):
        upload = self.client.upload(self.project, write("m.py", MODEL), wait=True)
        p = self.client.preview(upload)
        self.assertEqual(p.kind, "model")
        self.assertEqual(p.model.parameters, 16 * 8 + 8 + 8 * 2 + 2)
        self.assertEqual([layer.type for layer in p.model.layers], ["Linear", "Linear"])


    def test_a_generate_request_has_a_map_with_two_classes_apart(self):
        rows = [[(3 if i % 2 else -3) + (i % 7) / 20, (3 if i % 2 else -3) - (i % 5) / 20, i % 2] for i in range(200)]
        upload = self.client.upload(self.project, write("two.json", json.dumps(rows)), wait=True)
        run = self.client.fit(self.project, upload, inputs=2, outputs=3, target=1, task="classification", wait=True, timeout=180)
        p = self.client.projection(run)
        self.assertEqual(p.keyKind, "target")
        self.assertEqual(len(p.points), 200)
        self.assertEqual([pt.row for pt in p.points[:3]], [0, 1, 2])
        self.assertEqual(len(p.points[0].inputs), 2)
        cx = {}
        for k in (0, 1):
            pts = [pt for pt in p.points if pt.key == k]
            cx[k] = (sum(pt.x for pt in pts) / len(pts), sum(pt.y for pt in pts) / len(pts))
        self.assertGreater(abs(cx[0][0] - cx[1][0]) + abs(cx[0][1] - cx[1][1]), 0.1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
