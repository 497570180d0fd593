// The key info page's installer command and Python example, built from the API base the portal talks to.
import { PACK_PATH_PREFIX } from '../contract/calls';

const trimBase = (apiBase: string) => apiBase.replace(/\/+$/, '');

/** `pip install "<base>/api/pack/<file>"`, quoted because the package path may carry a query string. */
export function installCommand(apiBase: string, packFile: string): string {
  return `pip install "${trimBase(apiBase)}${PACK_PATH_PREFIX}${packFile}"`;
}

/** The project the key page's example finds or creates, so running it again adds none. */
export const PYTHON_EXAMPLE_PROJECT = 'Python example';

/**
 * A complete script that runs as shown in an empty folder on a new account: it writes its own small sample (iris-like
 * flowers with a text label) as flowers.csv, finds or creates the project "Python example" (so running it again adds
 * no project), uploads the sample, fits by column names waiting for the result, prints each step and the held-out
 * score, and saves the embeddings. With `client` (the account id the key belongs to, known to the key info page)
 * the script names its account explicitly. The tests run this exact text.
 */
export function pythonExample(apiBase: string, token: string, client?: string): string {
  const account = client ? `, client=${JSON.stringify(client)}` : '';
  return `import csv
import random

from portal_client import Client

client = Client(token=${JSON.stringify(token)}, base_url=${JSON.stringify(trimBase(apiBase))}${account})

# A small sample to start from: 90 iris-like flowers, four measurements in cm and the species as text.
random.seed(1)
typical = {"setosa": (5.0, 3.4, 1.5, 0.2), "versicolor": (5.9, 2.8, 4.3, 1.3), "virginica": (6.6, 3.0, 5.6, 2.0)}
columns = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
with open("flowers.csv", "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(columns + ["species"])
    for i in range(90):
        species = list(typical)[i % 3]
        writer.writerow([round(v + random.gauss(0, 0.2), 1) for v in typical[species]] + [species])
print("Sample: 90 rows written to flowers.csv (use your own .csv or .json the same way)")

project = client.project("${PYTHON_EXAMPLE_PROJECT}")  # found by name, or created on the first run
print("Project:", project.name, project.id)

upload = client.upload(project, "flowers.csv")  # sent as a JSON table; waits until Ready
print("Upload:", upload.name, upload.id, upload.status)

# Predict the species from three measurements (a new account's plan takes up to 3 input columns);
# wait=True returns once the request has finished.
inputs = ["sepal_length", "petal_length", "petal_width"]
run = client.fit(project, upload, target="species", inputs=inputs, name="Flowers from Python", wait=True)
fit = client.run(run.fit)
print("Request:", fit.name, fit.id, fit.state)
print("Held-out %s: %.2f on %d rows" % (fit.metrics.name, fit.metrics.value, fit.metrics.rows))

client.download(run, "embeddings.json")
print("Embeddings: saved to embeddings.json")
`;
}
