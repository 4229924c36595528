/**
 * Words too common to tell passages apart. Checked before stemming, on lower-cased words with
 * apostrophes removed ("don't" -> "dont"). Based on the usual English IR list (NLTK's, plus
 * question words), so that "what is the" retrieves nothing.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are arent as at be because been before being
  below between both but by can cannot cant could couldnt did didnt do does doesnt doing dont down
  during each either etc few for from further had hadnt has hasnt have havent having he hed hell hes
  her here heres hers herself him himself his how hows i id ill im ive if in into is isnt it its itself
  just lets may me might more most must mustnt my myself neither no nor not now of off on once only or
  other ought our ours ourselves out over own same shall shant she shed shell shes should shouldnt so
  some such than that thats the their theirs them themselves then there theres these they theyd theyll
  theyre theyve this those though through thus to too under until up upon us very via was wasnt we wed
  well were weve werent what whats when whens where wheres whether which while who whos whom whose why
  whys will with wont would wouldnt yet you youd youll youre youve your yours yourself yourselves
  also get got please tell`.split(/\s+/),
);

/**
 * Chinese function words and question words. Question words matter: they are rare in the
 * passages that answer a question, so left in they would give noise a high weight.
 */
export const CJK_STOP_WORDS: ReadonlySet<string> = new Set(
  `的 了 着 过 是 在 和 与 及 或 也 都 就 而 被 把 对 从 向 于 以 之 其 这 那 这个 那个 这些 那些 这里 那里
  一个 一些 有 没有 吗 呢 吧 啊 呀 嘛 么 什么 怎么 怎样 怎么样 如何 为什么 为何 哪 哪里 哪个 哪些 哪儿 多少 几
  谁 何 是否 是不是 请 请问 我 你 他 她 它 我们 你们 他们 她们 它们 自己 能 会 要 可以 应该 需要 等 及其 并 还 又
  即 则 但 但是 而且 并且 因为 所以 如果 虽然 由于 的话 之后 之前 时候 中 上 下 里 后 前 让 给 所 得 地`.split(
    /\s+/,
  ),
);
