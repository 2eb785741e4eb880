// A consumer of the npm package's types, checked by `tsc --noEmit` in
// scripts/release.sh after the tarball is installed (strict mode): the
// typed API as a TypeScript user writes it.
import { loadPasang, PasangError, encodeMove, type Board, type Pasang } from 'pasang-engine';

export async function firstMoves(bytes: BufferSource): Promise<string[]> {
  const pasang: Pasang = await loadPasang(bytes);
  const board: Board = pasang.board({ rules: { 'Ka Entry': 'jump' } });
  const played: string = board.push(board.legalMoves()[0]);
  const side: 'south' | 'north' = board.turn();
  const scores: { south: number; north: number } = board.scores();
  const action: number = encodeMove(played);
  try {
    board.push('a1a2');
  } catch (error) {
    if (!(error instanceof PasangError)) throw error;
  }
  const engine = pasang.engine((line: string) => console.log(line));
  engine.send('go depth 6');
  return [played, side, String(scores.south), String(action), board.result()];
}
