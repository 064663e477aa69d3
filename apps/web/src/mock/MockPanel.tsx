import { PLANS, type PlanSlug } from "@gmi/contract";
import { type FormEvent, useState } from "react";
import "./mock-panel.css";
import { hrefWith, MOCK_SCENARIOS, type MockScenarioName, type MockSettings } from "./scenarios.js";

/**
 * Mock mode's footer: says that no server answers, and picks a scenario and a plan. Applying reloads
 * the page with them in its address, so a link or a test can open any scenario directly.
 */
export const MockPanel = (props: { settings: MockSettings }) => {
  const [settings, setSettings] = useState(props.settings);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    location.assign(hrefWith(location.href, settings));
  };
  return (
    <form className="mock-panel" onSubmit={apply} aria-label="Mock API">
      <p>
        <strong>Mock API</strong>: msw answers in this browser, no server.
      </p>
      <label>
        Scenario{" "}
        <select
          value={settings.scenario}
          onChange={(e) => setSettings({ ...settings, scenario: e.target.value as MockScenarioName })}
        >
          {Object.entries(MOCK_SCENARIOS).map(([name, scenario]) => (
            <option key={name} value={name}>
              {scenario.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Plan{" "}
        <select
          value={settings.plan}
          onChange={(e) => setSettings({ ...settings, plan: e.target.value as PlanSlug })}
        >
          {Object.values(PLANS).map((plan) => (
            <option key={plan.slug} value={plan.slug}>
              {plan.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="secondary">
        Apply and reload
      </button>
    </form>
  );
};
