import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";

const step = z.object({
  name: z.string().optional(),
  uses: z.string().optional(),
  run: z.string().optional(),
  with: z.record(z.string(), z.unknown()).optional(),
  env: z.record(z.string(), z.string()).optional(),
});
const job = z.object({
  needs: z.union([z.string(), z.array(z.string())]).optional(),
  permissions: z.record(z.string(), z.string()).optional(),
  strategy: z.object({ matrix: z.object({ include: z.array(z.record(z.string(), z.string())) }) }).optional(),
  steps: z.array(step),
});
const workflow = z
  .object({
    on: z.object({ push: z.object({ tags: z.array(z.string()) }) }),
    jobs: z.object({ test: job, npm: job, images: job }),
  })
  .parse(parse(readFileSync(".github/workflows/release.yml", "utf8")));

const addonImage = (parse(readFileSync("addon/config.yaml", "utf8")) as { image: string }).image;
const version = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
/** A GitHub Actions expression as written in the workflow, `${{ ... }}`. */
const gh = (expression: string): string => `$\{{ ${expression} }}`;
const uses = (steps: readonly z.infer<typeof step>[], action: string) =>
  steps.find((s) => s.uses?.startsWith(`${action}@`));

describe("the release workflow", () => {
  it("runs on a version tag and tests as CI does before anything is published", () => {
    expect(workflow.on.push.tags).toEqual(["v*"]);
    expect(workflow.jobs.test.steps.some((s) => s.run?.trim() === "bash .ci/run")).toBe(true);
    expect(workflow.jobs.npm.needs).toBe("test");
    expect(workflow.jobs.images.needs).toBe("test");
  });

  it("refuses a tag that is not the version of the package and the add-on", () => {
    const check = workflow.jobs.test.steps.find((s) => s.name?.startsWith("The tag names the version"))?.run ?? "";
    const script = /node -e '([\s\S]*)'/.exec(check)?.[1] ?? "";
    expect(script).not.toBe("");
    const run = (tag: string) =>
      spawnSync(process.execPath, ["-e", script], { env: { ...process.env, GITHUB_REF_NAME: tag }, encoding: "utf8" });
    expect(run(`v${version}`).status).toBe(0);
    const wrong = run("v99.0.0");
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain("they must agree");
  });

  it("publishes the npm package with the NPM_TOKEN secret and provenance", () => {
    const { steps, permissions } = workflow.jobs.npm;
    const publish = steps.find((s) => s.run?.startsWith("npm publish"));
    expect(publish?.run).toContain("--provenance");
    expect(publish?.env?.NODE_AUTH_TOKEN).toBe(gh("secrets.NPM_TOKEN"));
    expect(permissions?.["id-token"]).toBe("write");
    expect(uses(steps, "actions/setup-node")?.with?.["registry-url"]).toBe("https://registry.npmjs.org");
  });

  it("pushes the daemon's and the add-on's images for amd64 and arm64, the add-on's under config.yaml's name", () => {
    const { steps, strategy, permissions } = workflow.jobs.images;
    expect(permissions?.packages).toBe("write");
    expect(uses(steps, "docker/setup-qemu-action")).toBeDefined();
    expect(uses(steps, "docker/setup-buildx-action")).toBeDefined();
    expect(uses(steps, "docker/login-action")?.with?.registry).toBe("ghcr.io");
    const build = uses(steps, "docker/build-push-action")?.with ?? {};
    expect(String(build.platforms).split(",").sort()).toEqual(["linux/amd64", "linux/arm64"]);
    expect(build.context).toBe(".");
    expect(build.push).toBe(true);
    // The Supervisor pulls `image:version`: the tag must be the bare version.
    expect(String(build.tags)).toContain(`${gh("matrix.image")}:${gh("steps.version.outputs.version")}`);
    expect(String(build["build-args"])).toContain(`BUILD_VERSION=${gh("steps.version.outputs.version")}`);
    expect(strategy?.matrix.include).toEqual(
      expect.arrayContaining([
        { image: "ghcr.io/energy2mqtt/energy2mqtt", file: "Dockerfile" },
        { image: addonImage, file: "addon/Dockerfile" },
      ]),
    );
  });
});
