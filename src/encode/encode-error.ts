/**
 * The writer's one error: the module holds something the target bytecode version cannot express
 * (or that no LLVM writer could have produced). `construct` names the thing, `version` the target.
 */
export class EncodeError extends Error {
  override readonly name = 'EncodeError';
  readonly construct: string;
  readonly version: number;

  constructor(construct: string, version: number, detail?: string) {
    super(`${construct} cannot be written in bytecode version ${version}${detail ? `: ${detail}` : ''}`);
    this.construct = construct;
    this.version = version;
  }
}
