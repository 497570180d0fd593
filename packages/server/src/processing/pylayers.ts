// Counting a PyTorch layer's parameters for pymodel.ts: each layer kind's positional arguments, defaults and
// formula, and the rule every size obeys (a whole number from 1 to 10^12), so no size can lower a count.
import { Unknown, type Val } from './pyexpr';

/** The largest size a layer argument may have; larger ones are typos or attacks, never models. */
export const MAX_SIZE = 1e12;
const RULE_MAX = MAX_SIZE.toLocaleString('en-US');

/** A size or count that breaks the rules: `found` says what (e.g. "a size of 6.5 (in_features)"), `rule` what is allowed. */
export class SizeError extends Error {
  constructor(
    readonly found: string,
    readonly rule: string,
  ) {
    super(`${found}; ${rule}`);
  }
}

/** How a value reads in a sentence: -900,029,999, 6.5, NaN, Infinity. */
export const show = (v: Val): string =>
  typeof v === 'number' ? (Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: 20 }) : String(v)) : JSON.stringify(v);

/** Marks an argument whose value needs running code; any formula that reads it fails. */
export const UNREADABLE = '\u0000unreadable';

const number = (v: Val | undefined, what: string): number => {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new Unknown(what);
};

/** A size (features, channels, dimensions): a whole number from 1 to MAX_SIZE. */
export const size = (v: Val | undefined, what: string): number => {
  const x = number(v, what);
  if (!Number.isInteger(x) || x < 1 || x > MAX_SIZE)
    throw new SizeError(`a size of ${show(x)} (${what})`, `every size must be a whole number from 1 to ${RULE_MAX}`);
  return x;
};

/** A count (layers, groups, projections): a whole number from `min` to MAX_SIZE. */
export const count = (v: Val | undefined, what: string, min: number): number => {
  const x = number(v, what);
  if (!Number.isInteger(x) || x < min || x > MAX_SIZE)
    throw new SizeError(`a count of ${show(x)} (${what})`, `every count must be a whole number from ${min} to ${RULE_MAX}`);
  return x;
};

/** How many items range(...) yields for its arguments (whole numbers, as Python requires). */
export function rangeCount(parts: Val[]): number {
  const xs = parts.map((p) => number(p, 'range'));
  const bad = xs.find((x) => !Number.isInteger(x) || Math.abs(x) > MAX_SIZE);
  if (bad !== undefined) throw new SizeError(`a bound of ${show(bad)}`, `range takes whole numbers up to ${RULE_MAX}`);
  if (xs.length >= 3 && xs[2] === 0) throw new SizeError('a step of 0', 'range needs a step other than 0');
  const n = xs.length === 1 ? xs[0] : xs.length >= 2 ? Math.ceil((xs[1] - xs[0]) / (xs[2] ?? 1)) : 1;
  return Math.max(0, n);
}

// ---- layers: positional argument names, defaults and parameter formulas ----
export type Args = Record<string, Val>;
export interface LayerDef {
  args: string[];
  defaults: Args;
  count: (a: Args) => number;
}

/** kernel_size or normalized_shape: one size for every axis, or one per axis. */
const dims = (v: Val, k: number, what: string): number => {
  if (Array.isArray(v)) return v.reduce((p: number, x) => p * size(x, what), 1);
  return size(v, what) ** k;
};
const flag = (v: Val | undefined) => {
  if (v === UNREADABLE) throw new Unknown('flag');
  return v !== undefined && v !== false && v !== null && v !== 0;
};

const conv = (k: number, transposed: boolean): LayerDef => ({
  args: transposed
    ? ['in_channels', 'out_channels', 'kernel_size', 'stride', 'padding', 'output_padding', 'groups', 'bias', 'dilation']
    : ['in_channels', 'out_channels', 'kernel_size', 'stride', 'padding', 'dilation', 'groups', 'bias'],
  defaults: { groups: 1, bias: true },
  count: (a) => {
    const inC = size(a.in_channels, 'in_channels'),
      outC = size(a.out_channels, 'out_channels'),
      g = count(a.groups, 'groups', 1);
    if (inC % g !== 0 || outC % g !== 0) {
      throw new SizeError(
        `groups = ${show(g)}, which does not divide in_channels (${show(inC)}) and out_channels (${show(outC)})`,
        'PyTorch refuses such a layer',
      );
    }
    const w = transposed ? inC * (outC / g) : outC * (inC / g);
    return w * dims(a.kernel_size, k, 'kernel_size') + (flag(a.bias) ? outC : 0);
  },
});

const recurrent = (gates: number, kind: 'LSTM' | 'GRU' | 'RNN'): LayerDef => ({
  args:
    kind === 'RNN'
      ? ['input_size', 'hidden_size', 'num_layers', 'nonlinearity', 'bias', 'batch_first', 'dropout', 'bidirectional']
      : ['input_size', 'hidden_size', 'num_layers', 'bias', 'batch_first', 'dropout', 'bidirectional', 'proj_size'],
  defaults: { num_layers: 1, bias: true, bidirectional: false, proj_size: 0 },
  count: (a) => {
    const inp = size(a.input_size, 'input_size'),
      h = size(a.hidden_size, 'hidden_size'),
      layers = count(a.num_layers, 'num_layers', 1);
    const dirs = flag(a.bidirectional) ? 2 : 1,
      proj = count(a.proj_size, 'proj_size', 0),
      out = proj > 0 ? proj : h;
    if (proj >= h && proj > 0)
      throw new SizeError(`proj_size = ${show(proj)}, not smaller than hidden_size (${show(h)})`, 'PyTorch refuses such a layer');
    // Every layer after the first reads the previous one's output; written out, not looped (layers may be huge).
    const layer = (x: number) => (gates * h * x + gates * h * out + (flag(a.bias) ? 2 * gates * h : 0) + (proj > 0 ? proj * h : 0)) * dirs;
    return layer(inp) + (layers - 1) * layer(out * dirs);
  },
});

const cell = (gates: number): LayerDef => ({
  args: ['input_size', 'hidden_size', 'bias'],
  defaults: { bias: true },
  count: (a) => {
    const i = size(a.input_size, 'input_size'),
      h = size(a.hidden_size, 'hidden_size');
    return gates * h * (i + h) + (flag(a.bias) ? 2 * gates * h : 0);
  },
});

const mha = (a: Args): number => {
  const e = size(a.embed_dim, 'embed_dim');
  const kd = a.kdim === null || a.kdim === undefined ? e : size(a.kdim, 'kdim');
  const vd = a.vdim === null || a.vdim === undefined ? e : size(a.vdim, 'vdim');
  const bias = flag(a.bias);
  return e * e + e * kd + e * vd + (bias ? 3 * e : 0) + e * e + (bias ? e : 0) + (flag(a.add_bias_kv) ? 2 * e : 0);
};

const norm = (affineDefault: boolean): LayerDef => ({
  args: ['num_features', 'eps', 'momentum', 'affine', 'track_running_stats'],
  defaults: { affine: affineDefault },
  count: (a) => (flag(a.affine) ? 2 * size(a.num_features, 'num_features') : 0),
});

/** A transformer layer: `attentions` attention blocks (self, and cross in a decoder), the feed-forward pair and `norms` layer norms. */
const transformerLayer = (attentions: number, norms: number): LayerDef => ({
  args: ['d_model', 'nhead', 'dim_feedforward', 'dropout', 'activation', 'layer_norm_eps', 'batch_first', 'norm_first', 'bias'],
  defaults: { dim_feedforward: 2048, bias: true },
  count: (a) => {
    const d = size(a.d_model, 'd_model'),
      f = size(a.dim_feedforward, 'dim_feedforward'),
      b = flag(a.bias);
    return attentions * mha({ embed_dim: d, bias: b }) + d * f + (b ? f : 0) + f * d + (b ? d : 0) + norms * (b ? 2 * d : d);
  },
});

export const LAYERS: Record<string, LayerDef> = {
  Linear: {
    args: ['in_features', 'out_features', 'bias'],
    defaults: { bias: true },
    count: (a) =>
      size(a.in_features, 'in_features') * size(a.out_features, 'out_features') + (flag(a.bias) ? size(a.out_features, 'out_features') : 0),
  },
  Bilinear: {
    args: ['in1_features', 'in2_features', 'out_features', 'bias'],
    defaults: { bias: true },
    count: (a) =>
      size(a.in1_features, 'in1_features') * size(a.in2_features, 'in2_features') * size(a.out_features, 'out_features') +
      (flag(a.bias) ? size(a.out_features, 'out_features') : 0),
  },
  Conv1d: conv(1, false),
  Conv2d: conv(2, false),
  Conv3d: conv(3, false),
  ConvTranspose1d: conv(1, true),
  ConvTranspose2d: conv(2, true),
  ConvTranspose3d: conv(3, true),
  Embedding: {
    args: ['num_embeddings', 'embedding_dim'],
    defaults: {},
    count: (a) => size(a.num_embeddings, 'num_embeddings') * size(a.embedding_dim, 'embedding_dim'),
  },
  EmbeddingBag: {
    args: ['num_embeddings', 'embedding_dim'],
    defaults: {},
    count: (a) => size(a.num_embeddings, 'num_embeddings') * size(a.embedding_dim, 'embedding_dim'),
  },
  LayerNorm: {
    args: ['normalized_shape', 'eps', 'elementwise_affine', 'bias'],
    defaults: { elementwise_affine: true, bias: true },
    count: (a) => (flag(a.elementwise_affine) ? dims(a.normalized_shape, 1, 'normalized_shape') * (flag(a.bias) ? 2 : 1) : 0),
  },
  RMSNorm: {
    args: ['normalized_shape', 'eps', 'elementwise_affine'],
    defaults: { elementwise_affine: true },
    count: (a) => (flag(a.elementwise_affine) ? dims(a.normalized_shape, 1, 'normalized_shape') : 0),
  },
  GroupNorm: {
    args: ['num_groups', 'num_channels', 'eps', 'affine'],
    defaults: { affine: true },
    count: (a) => (flag(a.affine) ? 2 * size(a.num_channels, 'num_channels') : 0),
  },
  BatchNorm1d: norm(true),
  BatchNorm2d: norm(true),
  BatchNorm3d: norm(true),
  SyncBatchNorm: norm(true),
  InstanceNorm1d: norm(false),
  InstanceNorm2d: norm(false),
  InstanceNorm3d: norm(false),
  LSTM: recurrent(4, 'LSTM'),
  GRU: recurrent(3, 'GRU'),
  RNN: recurrent(1, 'RNN'),
  LSTMCell: cell(4),
  GRUCell: cell(3),
  RNNCell: cell(1),
  MultiheadAttention: {
    args: ['embed_dim', 'num_heads', 'dropout', 'bias', 'add_bias_kv', 'add_zero_attn', 'kdim', 'vdim'],
    defaults: { bias: true, add_bias_kv: false, kdim: null, vdim: null },
    count: mha,
  },
  TransformerEncoderLayer: transformerLayer(1, 2),
  TransformerDecoderLayer: transformerLayer(2, 3),
  Transformer: {
    args: [
      'd_model',
      'nhead',
      'num_encoder_layers',
      'num_decoder_layers',
      'dim_feedforward',
      'dropout',
      'activation',
      'custom_encoder',
      'custom_decoder',
      'layer_norm_eps',
      'batch_first',
      'norm_first',
      'bias',
    ],
    defaults: { d_model: 512, nhead: 8, num_encoder_layers: 6, num_decoder_layers: 6, dim_feedforward: 2048, bias: true },
    count: (a) => {
      const b: Args = { d_model: a.d_model, dim_feedforward: a.dim_feedforward, bias: a.bias };
      const d = size(a.d_model, 'd_model'),
        norm = flag(a.bias) ? 2 * d : d;
      return (
        count(a.num_encoder_layers, 'num_encoder_layers', 0) * LAYERS.TransformerEncoderLayer.count(b) +
        norm +
        count(a.num_decoder_layers, 'num_decoder_layers', 0) * LAYERS.TransformerDecoderLayer.count(b) +
        norm
      );
    },
  },
  PReLU: { args: ['num_parameters'], defaults: { num_parameters: 1 }, count: (a) => size(a.num_parameters, 'num_parameters') },
};

/** Containers that deep-copy the layer they are given num_layers times. */
export const CLONERS = ['TransformerEncoder', 'TransformerDecoder'];
/** nn.Parameter(torch.zeros(...)) and friends: a raw weight whose size is its tensor's shape. */
export const PARAMETER = 'Parameter';
export const TENSOR_MAKERS = /^torch\.(ones|zeros|randn|rand|empty|full|eye|tensor)\s*\(/;
/** Every name that, after nn., builds something counted. */
export const NN_NAMES = new Set([...Object.keys(LAYERS), ...CLONERS, PARAMETER]);
