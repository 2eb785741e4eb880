// The package's Web Worker, bundled by esbuild as a page's author would
// bundle it: it loads pasang.wasm from beside the bundle.
import 'pasang-engine/worker.mjs';
