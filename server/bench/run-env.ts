// What every part of a bench run shares: the repository it runs from (the servers' and the
// scripts' root, and where --out and --curve are resolved), and its progress lines, on stderr
// (stdout carries the Markdown).
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export const progress = (message: string) => process.stderr.write(`${message}\n`);
