import { existsSync, statSync } from "node:fs";
import { join, posix, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { copyParts, dockerignore, execForm, filesUnder, parseDockerfile, readText } from "./dockerfile.js";

const instructions = parseDockerfile(readText("Dockerfile"));
const finalStage = Math.max(...instructions.map((i) => i.stage));
const inStage = (stage: number) => instructions.filter((i) => i.stage === stage);
const final = inStage(finalStage);
const only = (keyword: string) => {
  const found = final.filter((i) => i.keyword === keyword);
  expect(found, `one ${keyword} in the final stage`).toHaveLength(1);
  return found[0]?.args ?? "";
};
const runs = (stage: number) =>
  inStage(stage)
    .filter((i) => i.keyword === "RUN")
    .map((i) => i.args)
    .join(" && ");
/** Where a runtime path comes from: the COPY whose destination holds it. */
const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();
const copiedTo = (path: string) => {
  let workdir = "/";
  for (const instruction of final) {
    if (instruction.keyword === "WORKDIR") workdir = posix.resolve(workdir, instruction.args);
    if (instruction.keyword !== "COPY") continue;
    const copy = copyParts(instruction.args);
    for (const source of copy.sources) {
      // `COPY file dir/` lands in dir/file; a folder's contents, and `COPY a b`, land at the destination itself.
      const intoFolder = copy.destination.endsWith("/") && !(copy.from === undefined && isFolder(source));
      const target = posix.resolve(workdir, copy.destination, intoFolder ? posix.basename(source) : ".");
      if (path === target || path.startsWith(`${target}/`)) return { ...copy, sources: [source] };
    }
  }
  return undefined;
};

describe("the Dockerfile", () => {
  it("builds in one stage and runs in another, both on Node 22 and the same libc", () => {
    const froms = instructions.filter((i) => i.keyword === "FROM").map((i) => i.args.split(/\s+/)[0] ?? "");
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const image of froms) expect(image).toMatch(/^node:22-(alpine|bookworm-slim)/);
    const variants = new Set(froms.map((image) => image.replace(/^node:22-/, "").replace(/[\d.]+$/, "")));
    expect(variants.size).toBe(1);
  });

  it("compiles better-sqlite3 with a toolchain in the build stage and keeps only production dependencies", () => {
    const build = runs(0);
    expect(build).toMatch(/apk add .*python3.*make.*g\+\+|apt-get install .*python3.*make.*g\+\+/);
    expect(build).toContain("npm ci");
    expect(build).toMatch(/npm rebuild better-sqlite3/);
    expect(build).toContain("npm run build");
    expect(build).toMatch(/npm prune --omit=dev|npm ci --omit=dev/);
    expect(runs(finalStage)).not.toMatch(/g\+\+|python3/);
  });

  it("copies only paths that exist and that .dockerignore lets into the build context", () => {
    const ignored = dockerignore(readText(".dockerignore"));
    const copies = instructions.filter((i) => i.keyword === "COPY").map((i) => copyParts(i.args));
    const fromContext = copies.filter((copy) => copy.from === undefined).flatMap((copy) => copy.sources);
    expect(fromContext.length).toBeGreaterThan(0);
    for (const source of fromContext) {
      expect(existsSync(source), `${source} exists`).toBe(true);
      for (const file of filesUnder(source))
        expect(ignored(relative(".", file)), `${file} reaches the build`).toBe(false);
    }
    // The rule set is not vacuous: local state stays out of the context.
    for (const local of ["node_modules/zod/package.json", "dist/cli/main.js", "config/configuration.yaml", "data/x.db"])
      expect(ignored(local), local).toBe(true);
  });

  it("takes dist/ from `npm run build` in the build stage, which compiles src/ (with src/cli/main.ts) into dist/", () => {
    const build = JSON.parse(readText("tsconfig.build.json")) as {
      compilerOptions: { outDir: string; rootDir: string };
    };
    expect(build.compilerOptions.outDir).toBe("dist");
    expect(build.compilerOptions.rootDir).toBe("src");
    expect(existsSync("src/cli/main.ts")).toBe(true);
    const pkg = JSON.parse(readText("package.json")) as { scripts: Record<string, string> };
    expect(pkg.scripts.build).toBe("tsc -p tsconfig.build.json && tsx scripts/build-web.ts");
    expect(copiedTo("/app/dist")).toMatchObject({ from: "build", sources: ["/app/dist"] });
    expect(readText("bin/energy2mqtt.js")).toContain('"../dist/cli/main.js"');
    expect(copiedTo("/app/bin")).toMatchObject({ sources: ["bin"] });
  });

  it("starts through tini and the entrypoint script, which exists and is executable", () => {
    const entrypoint = execForm(only("ENTRYPOINT"));
    expect(entrypoint.slice(0, 2)).toEqual(["/sbin/tini", "--"]);
    expect(runs(finalStage)).toMatch(/apk add .*\btini\b/);
    const script = entrypoint[2] ?? "";
    const copy = copiedTo(script);
    expect(copy?.sources).toEqual(["docker/entrypoint.sh"]);
    expect(statSync("docker/entrypoint.sh").mode & 0o111).toBe(0o111);
    expect(readText("docker/entrypoint.sh").split("\n")[0]).toBe("#!/bin/sh");
  });

  it("runs `energy2mqtt run` by default and `energy2mqtt health` as its HEALTHCHECK, commands the CLI has", () => {
    const cli = readText("src/cli/main.ts");
    expect(execForm(only("CMD"))).toEqual(["run"]);
    const health = only("HEALTHCHECK");
    expect(health).toMatch(/--interval=\S+ .*CMD /);
    expect(execForm(health.slice(health.indexOf("CMD")))).toEqual(["energy2mqtt", "health"]);
    expect(runs(finalStage)).toContain("ln -s /app/bin/energy2mqtt.js /usr/local/bin/energy2mqtt");
    for (const command of ["run", "health"]) expect(cli).toContain(`.command("${command}")`);
  });

  it("runs as a non-root user, with /data as the volume, working folder and health file", () => {
    const user = only("USER");
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(final.findIndex((i) => i.keyword === "USER")).toBeLessThan(final.findIndex((i) => i.keyword === "CMD"));
    expect(only("VOLUME")).toBe("/data");
    expect(final.filter((i) => i.keyword === "WORKDIR").at(-1)?.args).toBe("/data");
    expect(runs(finalStage)).toMatch(/chown node:node \/data/);
    const env = final
      .filter((i) => i.keyword === "ENV")
      .map((i) => i.args)
      .join(" ");
    expect(env).toContain("ENERGY2MQTT_DATA_DIR=/data");
    expect(env).toContain("ENERGY2MQTT_HEALTH_FILE=/data/health.json");
  });
});

describe("the .dockerignore matcher", () => {
  it("follows Docker's rules: last match wins, folders cover their files", () => {
    const ignored = dockerignore("*\n!src\n!config/*.example.yaml\nsrc/**/*.test.ts\n");
    expect(ignored("README.md")).toBe(true);
    expect(ignored(join("src", "health", "writer.ts"))).toBe(false);
    expect(ignored("src/a/b.test.ts")).toBe(true);
    expect(ignored("config/configuration.example.yaml")).toBe(false);
    expect(ignored("config/configuration.yaml")).toBe(true);
  });
});
