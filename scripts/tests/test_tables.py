"""scripts/tables.py's reproduction block: a dpgpu reproduce folder's claims.csv rendered as
which claims hold on the reference GPU, on the reproducing one, and on both."""
import csv
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tables  # noqa: E402

COLUMNS = ["experiment", "claim", "paper", "kind", "verdict", "value", "reference_verdict",
           "reference_value", "reference_folder", "reference_device", "device"]


def claims_csv(folder, rows):
    with open(os.path.join(folder, "claims.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({**{k: "" for k in COLUMNS}, **r})


class Reproduction(unittest.TestCase):
    def test_each_claim_says_where_it_holds_and_the_counts_add_up(self):
        with tempfile.TemporaryDirectory() as d:
            common = {"experiment": "e", "paper": "000 Fig. 4", "kind": "ratio",
                      "reference_device": "NVIDIA H100", "device": "NVIDIA H200"}
            claims_csv(d, [{**common, "claim": "a", "verdict": "held", "reference_verdict": "held"},
                           {**common, "claim": "b", "verdict": "failed", "reference_verdict": "held"},
                           {**common, "claim": "c", "verdict": "held", "reference_verdict": "failed"},
                           {**common, "claim": "d", "verdict": "not evaluated", "reference_verdict": "held"},
                           {**common, "claim": "f", "verdict": "failed", "reference_verdict": "n/a"}])
            text = tables.render_reproduction(d)
            self.assertIn("on NVIDIA H200, against the reference folders on NVIDIA H100", text)
            self.assertIn("1 both; 2 reference only; 1 this GPU only; 1 neither.", text)
            self.assertIn("| `e` `a` | 000 Fig. 4 | ratio | held | held | both |", text)
            self.assertIn("| `e` `b` | 000 Fig. 4 | ratio | held | failed | reference only |", text)
            self.assertIn("| `e` `c` | 000 Fig. 4 | ratio | failed | held | this GPU only |", text)
            self.assertIn("| `e` `d` | 000 Fig. 4 | ratio | held | not evaluated | reference only |", text)

    def test_a_folder_without_claims_csv_is_an_error_naming_it(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(ValueError, "no claims.csv"):
                tables.render_reproduction(d)


if __name__ == "__main__":
    unittest.main()
