/**
 * picomatch, loaded on first use: its module costs about 20 ms at every start, and most runs match no glob
 * (glob_files, grep_code's glob filter and path permission rules are its only users).
 */
// @ts-types="@types/picomatch"
import type picomatch from "picomatch";
import { npmPackage } from "../npm.ts";

/** The picomatch function, with its `scan` and other helpers. */
export type Picomatch = typeof picomatch;

let loading: Promise<Picomatch> | undefined;

/** picomatch, imported once per process. */
export function loadPicomatch(): Promise<Picomatch> {
  loading ??= npmPackage("picomatch").then((module) => module.default);
  return loading;
}
