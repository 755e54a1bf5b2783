export const SET_USAGE = `usage: energy2mqtt set SERIAL SETTING_ID VALUE
       energy2mqtt set SERIAL preset IDENTIFIER JSON
       energy2mqtt set UUID ev COMMAND [JSON]`;
