import { lastMessage, type ModelScript, messageText } from "./scripted-model-server.js";

/**
 * A model that behaves as the skill protocol asks: on a weather question it reads the skill at
 * the location the snapshot gives, then answers from what it read.
 */
export const weatherScript: ModelScript = (body) => {
  const last = lastMessage(body);
  if (last.role === "tool") {
    const skillText = messageText(last.content);
    return {
      reasoning: "The skill says to use Open-Meteo.",
      content: skillText.includes("Open-Meteo") ? "Per the get_weather skill: sunny, 21 °C in Paris." : "I could not read the skill.",
    };
  }
  const system = messageText(body.messages.find((m) => m.role === "system")?.content);
  const location = /<name>get_weather<\/name>[\s\S]*?<location>([^<]+)<\/location>/.exec(system)?.[1];
  if (/weather/i.test(messageText(last.content)) && location) {
    return { reasoning: "A weather question: read the skill first.", toolCalls: [{ name: "read_file", args: { path: location } }] };
  }
  return { content: "Hello." };
};
