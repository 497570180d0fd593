import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shrinkReport } from './index';
import { readPyModel } from './pymodel';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shrink-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TRANSFORMER = `
import torch
import torch.nn as nn

D_MODEL = 512
N_LAYERS = 6
VOCAB = 32_000

class Block(nn.Module):
    """nn.Linear(99999, 99999) in a docstring does not count."""
    def __init__(self, d_model=D_MODEL, ff=4 * D_MODEL):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, 8)
        self.ln1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(
            nn.Linear(d_model, ff),
            nn.GELU(),
            nn.Linear(ff, d_model),
        )
        self.ln2 = nn.LayerNorm(d_model)  # nn.Linear(1, 1) in a comment does not count

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.emb = nn.Embedding(VOCAB, D_MODEL)
        self.blocks = nn.ModuleList([Block() for _ in range(N_LAYERS)])
        self.conv = nn.Conv2d(3, 64, kernel_size=(3, 3), bias=False)
        self.bn = nn.BatchNorm2d(64)
        self.lstm = nn.LSTM(input_size=128, hidden_size=256, num_layers=2, bidirectional=True)
        self.gru = nn.GRU(128, 64)
        self.head = nn.Linear(D_MODEL, VOCAB, bias=False)
`;

describe('static reading of a PyTorch model', () => {
  it('counts the parameters PyTorch would report', () => {
    const r = readPyModel(TRANSFORMER);
    if (!r.ok) throw new Error(r.error);
    // Per block: attention 4·512²+4·512, two LayerNorms 2·1,024, feed-forward 512·2,048+2,048 and 2,048·512+512.
    const block = 1_050_624 + 2 * 1_024 + 1_050_624 + 1_049_088;
    // LSTM 128→256, 2 layers, bidirectional: 790,528 + 1,576,960. GRU 128→64: 37,248.
    const expected = 32_000 * 512 + 6 * block + 1_728 + 128 + 2_367_488 + 37_248 + 512 * 32_000;
    expect(r.parameters).toBe(expected);
    expect(r.layers.find((l) => l.name === 'Net.blocks.attn')).toMatchObject({
      type: 'MultiheadAttention',
      count: 6,
      parameters: 1_050_624,
    });
  });

  it('reads for-loops over range, bare imports and Conv3d, Embedding, BatchNorm1d sizes', () => {
    const r = readPyModel(`
from torch.nn import Linear, Conv3d, BatchNorm1d
from torch import nn
layers = []
for i in range(4):
    layers.append(Linear(10, 10))
conv = Conv3d(2, 4, 3)
bn = BatchNorm1d(16, affine=False)
`);
    expect(r.ok && r.parameters).toBe(4 * 110 + (4 * 2 * 27 + 4));
  });
});

describe('shrinkReport', () => {
  it('writes per layer parameters and total sizes at fp32, fp16 and int8', async () => {
    const py = join(dir, 'model.py');
    writeFileSync(
      py,
      'import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = nn.Linear(100, 10)\n        self.b = nn.Embedding(1000, 8)\n',
    );
    const out = join(dir, 'report.json');
    expect(await shrinkReport(py, out)).toEqual({ parameters: 1_010 + 8_000 });
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.bytes).toEqual({ fp32: 36_040, fp16: 18_020, int8: 9_010 });
    expect(report.layers.map((l: { name: string; totalParameters: number }) => [l.name, l.totalParameters])).toEqual([
      ['M.a', 1_010],
      ['M.b', 8_000],
    ]);
  });

  it('fails with a sentence for a file without layers', async () => {
    const py = join(dir, 'empty.py');
    writeFileSync(py, 'x = 1\n');
    await expect(shrinkReport(py, join(dir, 'r.json'))).rejects.toThrow(/^No PyTorch layers/);
  });
});

describe('containers that copy layers', () => {
  it('counts nn.TransformerEncoder as num_layers copies of its layer, and nn.Transformer whole', () => {
    const enc = readPyModel(`
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128)
        self.encoder = nn.TransformerEncoder(layer, num_layers=3)
        self.inline = nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4, 128), 2)
`);
    // One layer: attention 4·64²+4·64 = 16,640; feed-forward 64·128+128 + 128·64+64 = 16,576; two LayerNorms 256.
    expect(enc.ok && enc.parameters).toBe(5 * 33_472);
    const t = readPyModel(
      'import torch.nn as nn\nmodel = nn.Transformer(d_model=64, nhead=4, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=128)\n',
    );
    // A decoder layer adds cross-attention (16,640) and a third LayerNorm (128); each stack ends in a LayerNorm.
    expect(t.ok && t.parameters).toBe(2 * 33_472 + 128 + (33_472 + 16_640 + 128) + 128);
  });

  it('stays fast on a Sequential of thousands of layers written on one logical line', () => {
    const body = Array.from({ length: 5_000 }, () => '    nn.Linear(16, 16),').join('\n');
    const t0 = performance.now();
    const r = readPyModel(`import torch.nn as nn\nmodel = nn.Sequential(\n${body}\n)\n`);
    expect(r.ok && r.parameters).toBe(5_000 * 272);
    expect(r.ok && r.layers[4_999].line).toBe(5_002);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});

describe('classes and functions of the file', () => {
  it('follows constructor and function arguments into the layers they size', () => {
    const r = readPyModel(`
import torch.nn as nn
import torch.nn.functional as F

def mlp(d_in, d_out, hidden=32):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, d_out))

class Block(nn.Module):
    def __init__(self, dim, heads, ff_mult=4):
        super().__init__()
        self.attn = nn.TransformerEncoderLayer(dim, heads, dim * ff_mult, dropout=self.p, activation=F.gelu)
        self.proj = mlp(dim, dim)

class Net(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.small = Block(width, 2)
        self.big = Block(dim=2 * width, heads=4, ff_mult=2)
`);
    if (!r.ok) throw new Error(r.error);
    const encoder = (d: number, f: number) => 4 * d * d + 4 * d + d * f + f + f * d + d + 4 * d;
    const proj = (d: number) => d * 32 + 32 + 32 * d + d;
    expect(r.parameters).toBe(encoder(16, 64) + proj(16) + encoder(32, 64) + proj(32));
    expect(r.layers.map((l) => l.name)).toEqual([
      'Net.small.attn',
      'Net.small.proj.Linear',
      'Net.small.proj.Linear',
      'Net.big.attn',
      'Net.big.proj.Linear',
      'Net.big.proj.Linear',
    ]);
  });

  it('still names a size that needs running code', () => {
    const r = readPyModel(
      'import torch.nn as nn\nclass A(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n        self.fc = nn.Linear(n, 2)\n',
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^nn\.Linear on line 5 has a size that cannot be read without running the code \(n, 2\)/);
  });
});

describe('names in their own class', () => {
  it("reads each class's self. values and parameters apart", () => {
    const r = readPyModel(`
import torch.nn as nn
class Encoder(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.dim = hidden * 2
        self.fc = nn.Linear(10, self.dim)

class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.dim = 3
        self.fc = nn.Linear(self.dim, 1)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = Encoder(hidden=8)
        self.dec = Decoder()
`);
    if (!r.ok) throw new Error(r.error);
    expect(r.layers.map((l) => [l.name, l.parameters])).toEqual([
      ['Model.enc.fc', 10 * 16 + 16],
      ['Model.dec.fc', 3 + 1],
    ]);
  });
});

describe('raw parameters', () => {
  it('counts nn.Parameter tensors by their shape', () => {
    const r = readPyModel(`
import torch
import torch.nn as nn
class Norm(nn.Module):
    def __init__(self, ndim, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None
        self.table = nn.Parameter(torch.randn(4, ndim, requires_grad=True))
        self.proj = nn.Parameter(torch.empty((2, 3)))
        self.eye = nn.Parameter(torch.eye(3))
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = Norm(8)
`);
    expect(r.ok && r.parameters).toBe(8 + 8 + 32 + 6 + 9);
  });
});

describe('weight tying', () => {
  it('counts an embedding tied to the output layer once', () => {
    const r = readPyModel(`
import torch.nn as nn
class LM(nn.Module):
    def __init__(self, vocab=1000, dim=64):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.wte.weight = self.lm_head.weight
`);
    if (!r.ok) throw new Error(r.error);
    expect(r.parameters).toBe(64_000);
    expect(r.layers.find((l) => l.name === 'LM.wte')).toMatchObject({ parameters: 0, tiedTo: 'LM.lm_head' });
  });
});

describe('a real-world model file', () => {
  it('reads GPT-2 small as PyTorch counts it: 124,475,904 parameters with the tied head', () => {
    const r = readPyModel(readFileSync(fileURLToPath(new URL('./fixtures/gpt2_small.py', import.meta.url)), 'utf8'));
    expect(r.ok && r.parameters).toBe(124_475_904);
  });
});
