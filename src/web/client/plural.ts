/** A count in words: "1 day", "3 days", "2 switches". */
export const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;
