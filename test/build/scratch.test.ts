import { it } from 'vitest';
import { ModuleBuilder } from '../../src/build/index.js';
import { printModule } from '../../src/print/index.js';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';

it('scratch', () => {
  const mb = new ModuleBuilder({ targetTriple: 'i686-pc-linux-gnu', endianness: 'little', pointerSize: 32 });
  const t = mb.types, c = mb.constants;
  const str = c.string('hello world\n');
  const g = mb.addGlobal('.str', str.type, { initializer: str, constant: true, linkage: 'internal' });
  const printf = mb.addFunction('printf', t.function(t.int, [t.pointer(t.sbyte)], true));
  const main = mb.addFunction('main', t.function(t.int, []));
  const b = mb.builder(mb.addBlock(main, 'entry'));
  const p = c.getelementptr(g, [c.int(t.long, 0), c.int(t.long, 0)]);
  b.call(printf, [p], 'tmp');
  b.ret(c.int(t.int, 0));
  const m = mb.build();
  const text = printModule(m);
  console.log(text);
  for (const v of [6, 5, 3]) {
    try {
      const bytes = writeModule(m, { bytecodeVersion: v, compression: 'none' });
      const back = printModule(readModule(bytes));
      console.log(v, back === text ? 'SAME' : back);
    } catch (e) { console.log(v, String(e)); }
  }
});
