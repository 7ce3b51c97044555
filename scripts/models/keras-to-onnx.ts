/**
 * A TensorFlow.js layers model (Keras functional `model.json` + its weight bytes) written
 * as an ONNX model, for the ESRGAN (RDN) networks of the @upscalerjs packages. Only the
 * layers those networks use are known: Conv2D, ReLU, Concatenate, Add and nearest
 * UpSampling2D; any other layer stops the conversion with its name, so a new package
 * version with a different architecture fails the build instead of converting wrongly.
 *
 * Keras works channels-last (NHWC) and ONNX's Conv channels-first (NCHW): the graph keeps
 * the Keras interface — input `[1, H, W, 3]`, output `[1, H·s, W·s, 3]`, floats in the
 * 0..255 range — with one Transpose after the input and one before the output, and every
 * kernel is stored as ONNX wants it ([out, in, kh, kw] instead of [kh, kw, in, out]).
 *
 * The converted graph also records, as metadata, how far each output pixel sees into the
 * input (`receptive_radius`, in input pixels): a tile run with at least that much context
 * on each side gives the same pixels as the whole image, which is what the tiler relies on.
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** The parts of a TF.js layers-model `model.json` the conversion reads. */
export interface LayersModelJson {
  format?: string;
  modelTopology: { model_config: { class_name: string; config: { layers: KerasLayer[]; input_layers: unknown[][]; output_layers: unknown[][] } } };
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
}

interface KerasLayer {
  class_name: string;
  name: string;
  config: Record<string, unknown>;
  inbound_nodes: [string, number, number, unknown][][];
}

export interface ConvertedModel {
  /** The serialised ONNX ModelProto. */
  bytes: Uint8Array;
  /** The upscaling factor (the UpSampling2D size). */
  scale: number;
  /** Input pixels each output pixel depends on, on each side. */
  receptiveRadius: number;
}

/** ONNX opset the graph is written for: Resize with `nearest_mode` needs 11+, onnxruntime 1.30 reads up to 23. */
const OPSET = 17;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

/**
 * Converts one model. `weights` holds the concatenated weight shards in manifest order.
 * `source` names where the weights came from (package and version), kept in the model's
 * doc string so a built file says what it was made from.
 */
export function kerasToOnnx(model: LayersModelJson, weights: Uint8Array, source: string): ConvertedModel {
  const { layers, input_layers, output_layers } = model.modelTopology.model_config.config;
  if (input_layers.length !== 1 || output_layers.length !== 1) throw new Error('conversion: one input and one output expected');
  const tensors = readWeights(model, weights);
  const nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  const initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  /** Receptive radius of each layer's output, in input pixels (before upsampling). */
  const radius = new Map<string, number>();
  let scale = 1;

  /** An upsampling whose one reader is a convolution: folded into it (subPixel). */
  const folded = new Map<string, { input: string; scale: number }>();
  const readers = new Map<string, KerasLayer[]>();
  for (const layer of layers) for (const [from] of layer.inbound_nodes[0] ?? []) readers.set(from, [...(readers.get(from) ?? []), layer]);

  const inputName = String(input_layers[0][0]);
  const outputName = String(output_layers[0][0]);
  const node = (opType: string, inputs: string[], output: string, attribute: InstanceType<typeof onnx.AttributeProto>[] = []) =>
    nodes.push(onnx.NodeProto.create({ opType, input: inputs, output: [output], name: output, attribute }));
  node('Transpose', ['input'], inputName, [ints('perm', [0, 3, 1, 2])]);
  radius.set(inputName, 0);

  for (const layer of layers) {
    const cfg = layer.config;
    const inputs = (layer.inbound_nodes[0] ?? []).map((n) => n[0]);
    const seen = Math.max(0, ...inputs.map((i) => radius.get(i) ?? 0));
    switch (layer.class_name) {
      case 'InputLayer':
        continue;
      case 'Conv2D': {
        const [kh, kw] = cfg.kernel_size as number[];
        if (String(cfg.strides) !== '1,1' || String(cfg.dilation_rate) !== '1,1' || cfg.groups !== 1 || cfg.data_format !== 'channels_last')
          throw new Error(`conversion: ${layer.name}: only stride 1, dilation 1, one group, channels_last convolutions are supported`);
        if (kh % 2 === 0 || kw % 2 === 0) throw new Error(`conversion: ${layer.name}: even kernels are not supported`);
        const pad = cfg.padding === 'same' ? [(kh - 1) / 2, (kw - 1) / 2] : cfg.padding === 'valid' ? [0, 0] : undefined;
        if (!pad) throw new Error(`conversion: ${layer.name}: padding ${String(cfg.padding)} is not supported`);
        const kernel = tensors.take(`${layer.name}/kernel`, 4);
        const bias = cfg.use_bias ? tensors.take(`${layer.name}/bias`, 1).data : undefined;
        const activation = cfg.activation as string;
        if (activation !== 'linear' && activation !== 'relu') throw new Error(`conversion: ${layer.name}: activation ${activation} is not supported`);
        const convOut = activation === 'relu' ? `${layer.name}/conv` : layer.name;
        const up = folded.get(inputs[0]);
        let conv: { input: string; weights: Float32Array; dims: number[]; bias?: Float32Array; pad: number[] };
        if (up) {
          const sub = subPixel(hwioToOihw(kernel.data, kernel.shape), kernel.shape, pad, up.scale, bias);
          conv = { input: up.input, ...sub };
        } else conv = { input: inputs[0], weights: hwioToOihw(kernel.data, kernel.shape), dims: [kernel.shape[3], kernel.shape[2], kh, kw], bias, pad };
        initializers.push(tensor(`${layer.name}/W`, conv.dims, conv.weights));
        const convInputs = [conv.input, `${layer.name}/W`];
        if (conv.bias) {
          initializers.push(tensor(`${layer.name}/B`, [conv.bias.length], conv.bias));
          convInputs.push(`${layer.name}/B`);
        }
        const [ph, pw] = conv.pad;
        const attributes = [ints('kernel_shape', conv.dims.slice(2)), ints('pads', [ph, pw, ph, pw]), ints('strides', [1, 1])];
        if (up) {
          node('Conv', convInputs, `${layer.name}/subpixel`, attributes);
          node('DepthToSpace', [`${layer.name}/subpixel`], convOut, [int('blocksize', up.scale), str('mode', 'CRD')]);
        } else node('Conv', convInputs, convOut, attributes);
        if (activation === 'relu') node('Relu', [convOut], layer.name);
        // after the upsampling a kernel's reach is in output pixels: 1/scale of an input pixel each
        radius.set(layer.name, seen + Math.ceil(Math.max(pad[0], pad[1]) / scale));
        break;
      }
      case 'Activation':
        if (cfg.activation !== 'relu') throw new Error(`conversion: ${layer.name}: activation ${String(cfg.activation)} is not supported`);
        node('Relu', inputs, layer.name);
        radius.set(layer.name, seen);
        break;
      case 'Concatenate':
        if (cfg.axis !== 3 && cfg.axis !== -1) throw new Error(`conversion: ${layer.name}: only channel concatenation is supported`);
        node('Concat', inputs, layer.name, [int('axis', 1)]);
        radius.set(layer.name, seen);
        break;
      case 'Add':
        node(inputs.length === 2 ? 'Add' : 'Sum', inputs, layer.name);
        radius.set(layer.name, seen);
        break;
      case 'UpSampling2D': {
        const [sh, sw] = cfg.size as number[];
        if (sh !== sw || cfg.interpolation !== 'nearest' || scale !== 1)
          throw new Error(`conversion: ${layer.name}: only one square nearest-neighbour upsampling is supported`);
        scale = sh;
        const next = readers.get(layer.name) ?? [];
        if (next.length === 1 && next[0].class_name === 'Conv2D' && next[0].config.padding === 'same') {
          // the convolution reads the small image instead (subPixel): no map at the output size
          folded.set(layer.name, { input: inputs[0], scale: sh });
          radius.set(layer.name, seen);
          break;
        }
        initializers.push(tensor(`${layer.name}/scales`, [4], Float32Array.of(1, 1, sh, sw)));
        // Keras repeats each pixel: ONNX nearest with asymmetric coordinates and floor rounding
        node('Resize', [inputs[0], '', `${layer.name}/scales`], layer.name, [
          str('mode', 'nearest'),
          str('coordinate_transformation_mode', 'asymmetric'),
          str('nearest_mode', 'floor'),
        ]);
        radius.set(layer.name, seen);
        break;
      }
      default:
        throw new Error(`conversion: layer ${layer.name} (${layer.class_name}) is not supported`);
    }
  }
  tensors.assertAllUsed();
  node('Transpose', [outputName], 'output', [ints('perm', [0, 2, 3, 1])]);
  const receptiveRadius = radius.get(outputName)!;

  const graph = onnx.GraphProto.create({
    name: 'esrgan',
    node: nodes,
    initializer: initializers,
    input: [valueInfo('input', [1, 'height', 'width', 3])],
    output: [valueInfo('output', [1, 'out_height', 'out_width', 3])],
  });
  const proto = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName: 'manifold scripts/models',
    docString: `Converted from ${source} (TensorFlow.js layers model)`,
    graph,
    metadataProps: [
      { key: 'scale', value: String(scale) },
      { key: 'receptive_radius', value: String(receptiveRadius) },
    ],
  });
  return { bytes: onnx.ModelProto.encode(proto).finish(), scale, receptiveRadius };
}

/** The weight tensors by name, each taken once (a weight no layer uses means a misread model). */
function readWeights(model: LayersModelJson, bytes: Uint8Array) {
  const specs = model.weightsManifest.flatMap((group) => group.weights);
  const all = new Map<string, { shape: number[]; data: Float32Array }>();
  let offset = 0;
  for (const spec of specs) {
    if (spec.dtype !== 'float32') throw new Error(`conversion: weight ${spec.name} is ${spec.dtype}, only float32 is supported`);
    const count = spec.shape.reduce((a, b) => a * b, 1);
    if (offset + count * 4 > bytes.byteLength) throw new Error(`conversion: the weight files end before ${spec.name}`);
    // TF.js writes little-endian floats; read through a DataView (any offset, any machine)
    const view = new DataView(bytes.buffer, bytes.byteOffset + offset, count * 4);
    all.set(spec.name, { shape: spec.shape, data: Float32Array.from({ length: count }, (_, i) => view.getFloat32(i * 4, true)) });
    offset += count * 4;
  }
  if (offset !== bytes.byteLength) throw new Error(`conversion: ${bytes.byteLength - offset} bytes of weights left over`);
  return {
    take(name: string, rank: number) {
      const found = all.get(name);
      if (!found || found.shape.length !== rank) throw new Error(`conversion: weight ${name} of rank ${rank} is missing`);
      all.delete(name);
      return found;
    },
    assertAllUsed() {
      if (all.size) throw new Error(`conversion: weights no layer uses: ${[...all.keys()].join(', ')}`);
    },
  };
}

/**
 * A "same" convolution of a nearest-upsampled image, rewritten as a convolution of the
 * image itself with `scale²` times the outputs, which DepthToSpace (CRD order: output
 * channel c·s² + a·s + b is sub-pixel (a, b) of channel c) lays out at the larger size.
 * Exact: output pixel (s·i + a) reads upsampled rows s·i + a + d, that is image rows
 * i + floor((a + d) / s), so each tap of the original kernel lands on one tap of the new
 * one, and zero padding outside the image is zero padding outside the upsampled image.
 * The work is the same; the map at the output size (48 channels × s² × the tile) is gone.
 */
function subPixel(weights: Float32Array, [kh, kw, cin, cout]: number[], [ph, pw]: number[], s: number, bias?: Float32Array) {
  const [rh, rw] = [Math.ceil(ph / s), Math.ceil(pw / s)];
  const [nh, nw] = [2 * rh + 1, 2 * rw + 1];
  const out = new Float32Array(cout * s * s * cin * nh * nw);
  for (let c = 0; c < cout; c++)
    for (let a = 0; a < s; a++)
      for (let b = 0; b < s; b++)
        for (let i = 0; i < cin; i++)
          for (let dy = -ph; dy <= ph; dy++)
            for (let dx = -pw; dx <= pw; dx++) {
              const ky = Math.floor((a + dy) / s) + rh,
                kx = Math.floor((b + dx) / s) + rw;
              out[((((c * s + a) * s + b) * cin + i) * nh + ky) * nw + kx] += weights[((c * cin + i) * kh + dy + ph) * kw + dx + pw];
            }
  return {
    weights: out,
    dims: [cout * s * s, cin, nh, nw],
    bias: bias && Float32Array.from({ length: cout * s * s }, (_, o) => bias[Math.floor(o / (s * s))]),
    pad: [rh, rw],
  };
}

/** Keras kernel [kh, kw, in, out] → ONNX [out, in, kh, kw]. */
function hwioToOihw(data: Float32Array, [kh, kw, cin, cout]: number[]): Float32Array {
  const out = new Float32Array(data.length);
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < cin; i++) for (let o = 0; o < cout; o++) out[((o * cin + i) * kh + y) * kw + x] = data[((y * kw + x) * cin + i) * cout + o];
  return out;
}

function tensor(name: string, dims: number[], data: Float32Array) {
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: littleEndian(data) });
}

/** ONNX raw_data is little-endian whatever the machine. */
function littleEndian(data: Float32Array): Uint8Array {
  const out = new DataView(new ArrayBuffer(data.length * 4));
  data.forEach((v, i) => out.setFloat32(i * 4, v, true));
  return new Uint8Array(out.buffer);
}

function valueInfo(name: string, dims: (number | string)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType: FLOAT,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  });
}

const ints = (name: string, values: number[]) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: values });
const int = (name: string, value: number) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });
const str = (name: string, value: string) =>
  onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.STRING, s: new TextEncoder().encode(value) });
