/**
 * Several models in the UI (issue 38): a second profile added and tried in the Model dialog, picked
 * by the composer for one message, named on the turn it answered, the session's cost shown; and its
 * key never reaches the page.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedModelServer, startScriptedModelServer } from "../../backend/test-support/scripted-model-server";
import { startWorkbench } from "../../backend/test-support/workbench-harness";
import { chromiumAvailable } from "./browser";
import { browserSession } from "./page-checks";

const KEY_B = "sk-e2e-profile-b-93af17";

describe.skipIf(!chromiumAvailable)("model profiles in the UI", () => {
  const session = browserSession("model-profiles");
  let other: ScriptedModelServer | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
  });

  it("adds a profile in the dialog, tests it, sends one message to it from the composer, and shows its model and the session's cost", async () => {
    other = await startScriptedModelServer(() => ({ content: "Answered by the cheap one.", usage: { prompt_tokens: 3000, completion_tokens: 500 } }));
    const wb = session.use(await startWorkbench({ script: () => ({ content: "Answered by the default." }) }));
    const view = await session.open(wb.url);
    const { page } = view;
    // Every reply the page gets, to look for the key in.
    const replies: string[] = [];
    page.on("response", (response) => {
      if (response.url().includes("/api/") && (response.headers()["content-type"] ?? "").includes("json")) void response.text().then((t) => replies.push(t), () => {});
    });

    await page.getByTestId("model-button").click();
    await page.getByTestId("model-dialog").waitFor();
    // One form at a time, under the profile list: the default profile's, until a profile is added.
    const profileRows = await page.getByTestId("profile-row").first().boundingBox();
    expect((await page.getByTestId("model-base-url").boundingBox())!.y).toBeGreaterThan(profileRows!.y);
    await page.getByTestId("profile-add").click();
    await page.getByTestId("profile-form").waitFor();
    expect(await page.getByTestId("default-profile-form").isVisible()).toBe(false);
    expect(await page.locator("[data-testid=model-dialog] [data-testid=model-test], [data-testid=model-dialog] [data-testid=model-save]").filter({ visible: true }).count()).toBe(0);
    await page.getByTestId("profile-name").fill("cheap");
    await page.getByTestId("profile-base-url").fill(other.baseUrl);
    await page.getByTestId("profile-model").fill("model-b");
    await page.getByTestId("profile-api-key").fill(KEY_B);
    await page.getByTestId("profile-price-in").fill("1");
    await page.getByTestId("profile-price-out").fill("4");
    await page.getByTestId("profile-test").click();
    await expect.poll(() => page.locator('[data-testid="profiles"] [data-testid="model-check"][data-check="chat"]').getAttribute("data-ok"), { timeout: 15000 }).toBe("true");
    // The test went to the profile's own server, with its key.
    expect(other.requests.some((r) => r.headers.authorization === `Bearer ${KEY_B}`)).toBe(true);
    // What the test found fills the capabilities: this server takes images, and never calls a tool.
    await expect.poll(() => page.getByTestId("profile-cap-vision").isChecked()).toBe(true);
    expect(await page.getByTestId("profile-cap-tools").isChecked()).toBe(false);
    await page.getByTestId("profile-save").click();
    await page.locator('[data-testid="profile-row"][data-profile="cheap"]').waitFor();
    // Saved: the profile's form closes, and the default's is back.
    await page.getByTestId("default-profile-form").waitFor();
    expect(await page.getByTestId("profile-form").count()).toBe(0);
    await view.shot("model-profiles");
    await page.keyboard.press("Escape");

    // One message to the cheap profile, picked by the composer.
    const before = other.requests.length;
    await page.getByTestId("model-once").check();
    await page.getByTestId("model-select").selectOption("cheap");
    await page.getByTestId("model-once-pending").waitFor();
    await page.getByTestId("composer").fill("hello there");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("answer").last().innerText(), { timeout: 10000 }).toContain("Answered by the cheap one.");
    expect(other.requests.length).toBe(before + 1);
    expect(other.requests.at(-1)!.body.model).toBe("model-b");
    await expect.poll(() => page.getByTestId("turn-model").last().innerText()).toContain("cheap (model-b)");
    // (3,000 × $1 + 500 × $4) / 1,000,000 = $0.005
    await expect.poll(() => page.getByTestId("turn-cost").last().innerText()).toContain("$0.0050");
    await expect.poll(() => page.getByTestId("session-cost").innerText()).toContain("$0.0050");

    // The next message goes back to the session's own profile.
    await page.getByTestId("composer").fill("and again");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("answer").last().innerText(), { timeout: 10000 }).toContain("Answered by the default.");
    expect(other.requests.length).toBe(before + 1);
    await expect.poll(() => page.getByTestId("turn-model").last().innerText()).toContain("scripted");
    await view.shot("model-per-message");

    // The key is nowhere in the page or in what the API sent it.
    expect(await page.content()).not.toContain(KEY_B);
    expect(replies.length).toBeGreaterThan(5);
    for (const reply of replies) expect(reply).not.toContain(KEY_B);
  });
});
