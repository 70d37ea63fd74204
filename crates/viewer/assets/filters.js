// The matches page's filter form: "win" and "loss" are seen from a bot, so they can be chosen
// only while a bot is; choosing "any" bot again clears such a result.

const form = document.querySelector("form.filters");
const bot = form?.querySelector('select[name="bot"]');
const result = form?.querySelector('select[name="result"]');

function sync() {
  const noBot = bot.value === "";
  for (const option of result.querySelectorAll("option[data-needs-bot]")) {
    option.disabled = noBot;
    if (noBot && option.selected) result.value = "";
  }
}

if (bot && result) {
  bot.addEventListener("change", sync);
  sync();
}
