/** The commit a build came from: "dev" from source; the release workflow rewrites this file before compiling. */
export const COMMIT = "dev";
