import type { Rule } from './types.js';

/**
 * The arguments of the gold items' debates, hand-written like a hard sentence's (types.ts):
 * for the sentence a gold item turns on (its direct sentence, or for a background-only
 * passage the sentence that shares most words with the query), the best case each agent
 * can make and the guideline it turns on. As with the hard sentences, each side is the
 * strongest honest reading, so that the debate does not give the gold label away: a gold
 * item's debate should tell its label no more than a real item's debate tells its own.
 *
 * Keyed by query text, then sentence. generate.ts fails on a gold item missing here.
 */
export interface GoldArgument {
  rule: Rule;
  pro: string;
  con: string;
}

type Table = Record<string, Record<string, GoldArgument>>;

export const GOLD_ARGUMENTS: Table = {
  "how long is the danube river": {
    "The Danube rises in the Black Forest of Germany, where two small streams, the Brigach and the Breg, join at Donaueschingen.": {
      "rule": "scope",
      "pro": "It traces the river back to its source at Donaueschingen, where its length is measured from.",
      "con": "Where the river begins is not how long it is; the sentence gives no distance at all."
    },
    "For centuries the river formed a frontier of the Roman Empire, and forts along it grew into towns such as Regensburg.": {
      "rule": "surface",
      "pro": "It describes how far the river ran along the old frontier of the Roman Empire.",
      "con": "The Roman frontier is history, not a measurement; neither 2,850 km nor 1,770 miles is given."
    }
  },
  "what seal lives in lake baikal": {
    "Scientists estimate that the lake is around 25 million years old, making it one of the oldest lakes on Earth.": {
      "rule": "key",
      "pro": "The great age of the lake explains how a seal found only there could evolve in it.",
      "con": "It is about the age of the lake; no seal, nerpa or otherwise, is mentioned."
    },
    "The lake is home to the nerpa, a small seal that lives nowhere else.": {
      "rule": "direct",
      "pro": "It calls the nerpa a seal that lives in the lake and nowhere else.",
      "con": "Lake Baikal is never named in the sentence; 'Baikal seal' does not occur either."
    }
  },
  "why is the atacama desert so dry": {
    "In rare wet years the desert floor bursts into bloom, an event known as the desierto florido.": {
      "rule": "intent",
      "pro": "Calling wet years rare says the desert almost never gets rain, which is why it is dry.",
      "con": "It describes what happens when rain does fall, not why the desert is so dry; none of the causes is given."
    }
  },
  "when will halley's comet be visible again": {
    "The comet appears on the Bayeux Tapestry, which records its passage in 1066.": {
      "rule": "scope",
      "pro": "A passage recorded in 1066 is one point in the comet's cycle of returns.",
      "con": "1066 is a past passage, not when the comet will be visible again."
    }
  },
  "what do blue whales eat": {
    "Blue whale calls are among the loudest sounds made by any animal and can travel hundreds of kilometres underwater.": {
      "rule": "surface",
      "pro": "It is about blue whales, the animal whose diet the query asks about.",
      "con": "Loud calls that travel far say nothing about food; krill is not mentioned."
    },
    "An adult can eat up to 4 tonnes of krill a day during the feeding season.": {
      "rule": "direct",
      "pro": "Eating up to 4 tonnes of krill a day shows that krill is their food; the answer is supported.",
      "con": "The quantity is for 'an adult'; the sentence never says that it means the blue whale."
    }
  },
  "what are tardigrades also called": {
    "Tardigrades have been found in hot springs, Antarctic ice and rainforest canopies.": {
      "rule": "key",
      "pro": "It describes tardigrades and the places they live, which gave them their nicknames.",
      "con": "It lists where tardigrades live, not what else they are called."
    },
    "Tardigrades are also known as water bears because of their lumbering gait.": {
      "rule": "complete",
      "pro": "'Also known as water bears' gives another name for tardigrades.",
      "con": "Only one of the other names is given; 'moss piglets' does not occur."
    }
  },
  "what was the first book printed by gutenberg": {
    "Gutenberg's business partner Johann Fust later sued him and took over much of his equipment.": {
      "rule": "correctness",
      "pro": "A partner who took over his equipment shared in printing Gutenberg's books.",
      "con": "It is about a lawsuit over equipment; no book Gutenberg printed is named."
    },
    "Johannes Gutenberg was a goldsmith from Mainz.": {
      "rule": "key",
      "pro": "It introduces Gutenberg, the printer whose first book the query is about.",
      "con": "It gives his trade and his town, not anything that he printed."
    }
  },
  "who operates gps": {
    "The Global Positioning System consists of a constellation of satellites orbiting about 20,200 km above Earth.": {
      "rule": "scope",
      "pro": "It describes the Global Positioning System itself, the system whose operator the query wants.",
      "con": "It says what GPS consists of, not who operates it; no agency or government is given."
    }
  },
  "what pressure is espresso brewed at": {
    "Caffeine is a stimulant that blocks adenosine receptors in the brain.": {
      "rule": "surface",
      "pro": "It is about caffeine, the reason espresso is brewed strong.",
      "con": "Caffeine's effect on the brain is not a brewing pressure; 9 bar never comes up."
    },
    "Espresso is brewed by forcing hot water through finely ground coffee at about 9 bar of pressure.": {
      "rule": "direct",
      "pro": "It gives about 9 bar as the pressure espresso is brewed at.",
      "con": "The sentence describes the method; 'about 9 bar' is not an exact pressure."
    }
  },
  "when did beethoven's ninth symphony premiere": {
    "In Japan the symphony is performed widely at the end of every year, a tradition known as Daiku.": {
      "rule": "scope",
      "pro": "It gives a time for performances of the symphony, at the end of every year.",
      "con": "Yearly performances in Japan are not the premiere; 1824 is not given."
    },
    "Beethoven's Symphony No. 9 in D minor was his last complete symphony.": {
      "rule": "key",
      "pro": "As his last complete symphony, it premiered late in his life.",
      "con": "Its key and its place among his works are stated, not the date of the premiere."
    },
    "At the premiere in 1824, Beethoven had to be turned around to see the audience applauding.": {
      "rule": "complete",
      "pro": "It dates the premiere to 1824.",
      "con": "Only the year is given; the day of the premiere, 7 May, is not stated."
    }
  },
  "where is the mona lisa displayed": {
    "The sitter is widely believed to be Lisa Gherardini, the wife of a Florentine merchant.": {
      "rule": "key",
      "pro": "It ties the painting to Florence, a place in its history.",
      "con": "It says who the sitter was, not where the painting is displayed; the Louvre is absent."
    },
    "The Louvre displays the Mona Lisa in the Salle des États, one of its largest rooms.": {
      "rule": "direct",
      "pro": "It says the Louvre displays the Mona Lisa.",
      "con": "The Louvre is given but not Paris, so the city in the fuller answer is not stated."
    }
  },
  "which sea does the danube flow into": {
    "The Danube empties into the Black Sea through a wide delta shared by Romania and Ukraine.": {
      "rule": "direct",
      "pro": "Emptying into the Black Sea through a delta means flowing into that sea; the answer is stated.",
      "con": "The sentence is about the delta and the two countries sharing it, not where the river ends."
    }
  },
  "how tall is mount kilimanjaro": {
    "Uhuru Peak, the highest point of Kilimanjaro, stands 5,895 metres above sea level.": {
      "rule": "scope",
      "pro": "The highest point of Kilimanjaro stands at 5,895 metres, which is the mountain's height.",
      "con": "Uhuru Peak is one summit; the height of the mountain as a whole is not what the text measures."
    }
  },
  "which country is mount kilimanjaro in": {
    "Tanzania's Kilimanjaro Region takes its name from the mountain, which lies entirely within the country.": {
      "rule": "direct",
      "pro": "It says the mountain lies entirely within Tanzania.",
      "con": "It explains where a region got its name; the country comes up only in passing."
    }
  },
  "where is the atacama desert": {
    "The Atacama Desert occupies much of northern Chile, between the Andes and the Pacific Ocean.": {
      "rule": "scope",
      "pro": "It puts the desert in northern Chile, between the Andes and the Pacific.",
      "con": "'Much of northern Chile' leaves the rest of the desert's extent open, so the location is only partly given."
    },
    "In rare wet years the desert floor bursts into bloom, an event known as the desierto florido.": {
      "rule": "direct",
      "pro": "A Spanish name for the event points to a Spanish-speaking country.",
      "con": "It describes flowering after rain, which tells nothing about location; no country or region is mentioned."
    }
  },
  "how long is a day on mars": {
    "Valles Marineris, a canyon system more than 4,000 km long, runs along the equator.": {
      "rule": "surface",
      "pro": "It describes the Martian equator, where a day on the planet is measured.",
      "con": "4,000 km is the length of a canyon, not of a day; the sentence gives no time in hours."
    }
  },
  "how often does halley's comet come back": {
    "Halley showed that the comets seen in 1531, 1607 and 1682 were one object coming back roughly every 76 years.": {
      "rule": "correctness",
      "pro": "Coming back roughly every 76 years is how often the comet returns.",
      "con": "The 76 years comes from three old sightings, so the period is an estimate and not stated as fact."
    }
  },
  "who discovered oxygen": {
    "Ozone, a form of oxygen with three atoms per molecule, absorbs ultraviolet light in the stratosphere.": {
      "rule": "scope",
      "pro": "It is about oxygen and one of its forms, the element in the query.",
      "con": "Ozone in the stratosphere is a different subject; the discoverer of oxygen is never mentioned."
    }
  },
  "what is the atomic number of oxygen": {
    "Oxygen is the chemical element with symbol O and atomic number 8.": {
      "rule": "direct",
      "pro": "It gives oxygen the atomic number 8.",
      "con": "It is a definition of the element; the number is only one of the properties it lists."
    }
  },
  "which elements did marie curie discover": {
    "In 1898 Marie and Pierre Curie announced the discovery of two new elements, polonium and radium.": {
      "rule": "correctness",
      "pro": "Polonium and radium are the two elements the Curies announced.",
      "con": "The credit goes to Marie and Pierre together, so what Marie discovered on her own is not said."
    },
    "Marie Curie was born Maria Skłodowska in Warsaw in 1867.": {
      "rule": "key",
      "pro": "Her birth in Warsaw ties her to polonium, named for her native Poland.",
      "con": "Birth name, place and year are all it has; not a single element is mentioned."
    }
  },
  "how many nobel prizes did marie curie win": {
    "She married the physicist Pierre Curie in 1895.": {
      "rule": "intent",
      "pro": "Her marriage to Pierre Curie is part of the story of their shared prize.",
      "con": "It is about a marriage in 1895 and says nothing about prizes, let alone how many she won."
    },
    "Curie was the first woman to win a Nobel Prize and the first person to win it twice.": {
      "rule": "direct",
      "pro": "Being the first person to win it twice means two Nobel Prizes.",
      "con": "It is about firsts; the number of prizes has to be worked out from 'twice'."
    }
  },
  "who discovered penicillin": {
    "Some people are allergic to penicillin and must be given other antibiotics.": {
      "rule": "surface",
      "pro": "It concerns penicillin, the drug whose discoverer the query wants.",
      "con": "It is about allergies to the drug; Fleming, or any discoverer, never comes up."
    }
  },
  "when was penicillin discovered": {
    "Fleming discovered penicillin in September 1928, after returning from a holiday.": {
      "rule": "direct",
      "pro": "It dates Fleming's discovery of penicillin to September 1928.",
      "con": "The date is part of an anecdote about a holiday rather than a plain statement of the discovery."
    }
  },
  "how many eggs does a queen bee lay per day": {
    "In spring a healthy queen can lay up to 2,000 eggs a day.": {
      "rule": "scope",
      "pro": "Up to 2,000 eggs a day is the figure the query asks for.",
      "con": "That figure holds for a healthy queen in spring, not for the daily number in general."
    },
    "A honeybee colony can contain tens of thousands of workers, a single queen and, in summer, a few hundred drones.": {
      "rule": "scope",
      "pro": "A single queen behind tens of thousands of workers implies her laying rate.",
      "con": "It counts a colony's workers, queen and drones, not the eggs laid each day."
    }
  },
  "how long can a blue whale grow": {
    "Blue whale calls are among the loudest sounds made by any animal and can travel hundreds of kilometres underwater.": {
      "rule": "scope",
      "pro": "It is about the blue whale and gives a distance in kilometres.",
      "con": "The distance is how far the calls travel, not how long the whale grows."
    }
  },
  "how do tardigrades survive drying out": {
    "This ability to survive almost complete dehydration is called anhydrobiosis.": {
      "rule": "intent",
      "pro": "Anhydrobiosis is the name for how they survive dehydration, one of the answers.",
      "con": "Naming the ability does not say how the animal survives; the tun is not mentioned."
    }
  },
  "when did gutenberg invent the printing press": {
    "His system combined movable metal type, an oil-based ink and a wooden press adapted from wine and olive presses.": {
      "rule": "intent",
      "pro": "It describes the invention whose date the query wants.",
      "con": "It says what the press was made of, not when it was invented; the sentence gives no date."
    },
    "By about 1450 Gutenberg's press was in operation in Mainz.": {
      "rule": "scope",
      "pro": "A press in operation by about 1450 dates the invention to that time.",
      "con": "When the press was running is not when it was invented, which may have been years earlier."
    }
  },
  "when did the berlin wall fall": {
    "The Berlin Wall fell on the night of 9 November 1989, when East German border guards opened the crossings.": {
      "rule": "direct",
      "pro": "The Wall fell on the night of 9 November 1989, so the date is stated.",
      "con": "Opening the crossings is dated here, while the demolition of the Wall came later."
    },
    "President John F. Kennedy gave his 'Ich bin ein Berliner' speech in West Berlin in 1963.": {
      "rule": "scope",
      "pro": "It gives a date from the history of divided Berlin and its Wall.",
      "con": "1963 is the year of a speech, not of the fall of the Wall."
    }
  },
  "when was the berlin wall built": {
    "East Germany sealed the border overnight in August 1961, first with barbed wire and then with concrete.": {
      "rule": "direct",
      "pro": "Sealing the border with barbed wire, then concrete, in August 1961 is building the Wall.",
      "con": "The Berlin Wall is never mentioned; sealing a border is not the same as building it."
    },
    "Construction of the Berlin Wall began on 13 August 1961.": {
      "rule": "intent",
      "pro": "It dates the start of the Wall's construction to 13 August 1961.",
      "con": "The start of construction is given, not when the Wall was finished."
    }
  },
  "which king agreed to magna carta": {
    "King John accepted Magna Carta under pressure from his barons.": {
      "rule": "correctness",
      "pro": "Accepting the charter is agreeing to it; King John is the one who did.",
      "con": "Accepting under pressure from his barons is not the same as agreeing to it."
    }
  },
  "what is cross-site scripting": {
    "Web browsers run JavaScript that arrives as part of a page, with the permissions of the site that served it.": {
      "rule": "scope",
      "pro": "It explains the browser behaviour that cross-site scripting abuses.",
      "con": "It describes how browsers run scripts, but not any attack on them."
    },
    "Cross-site scripting (XSS) is a type of injection attack in which malicious scripts are inserted into otherwise trusted websites.": {
      "rule": "direct",
      "pro": "It defines cross-site scripting as an injection attack on trusted websites.",
      "con": "'A type of injection attack' is not the wording of the answer, which calls it code injection."
    },
    "The same-origin policy stops scripts from one site reading data that belongs to another.": {
      "rule": "intent",
      "pro": "Scripts from one site reaching another is what cross-site scripting is about.",
      "con": "It describes a browser defence, not what cross-site scripting is."
    }
  },
  "how can websites prevent cross-site scripting": {
    "Template engines that escape variables by default, like the {{ }} syntax of Handlebars, prevent most cross-site scripting bugs.": {
      "rule": "intent",
      "pro": "Escaping variables by default is escaping output, which prevents the attack.",
      "con": "One kind of tool is praised for most bugs; that is not general advice for websites."
    }
  },
  "which html tag makes text bold": {
    "Wrapping words in <b> or <strong> tags makes a browser show them in a heavier, bold font.": {
      "rule": "direct",
      "pro": "The <b> and <strong> tags make a browser show text in bold.",
      "con": "How a browser shows a 'heavier' font is the point, not which tag the query should get."
    },
    "The <b> element renders its text in bold, as in <b>warning</b>.": {
      "rule": "complete",
      "pro": "It says the <b> element renders its text in bold.",
      "con": "Only the <b> element is given; <strong> does not occur."
    }
  },
  "what does &amp; mean in html": {
    "The WHATWG maintains the HTML standard as a living document.": {
      "rule": "correctness",
      "pro": "The HTML standard it mentions is where &amp; and its meaning are defined.",
      "con": "It says who maintains the standard, not what &amp; means; character references never come up."
    },
    "HTML documents are made of elements written as tags in angle brackets, such as <p> for a paragraph.": {
      "rule": "surface",
      "pro": "It explains how HTML markup is written; &amp; is part of that markup.",
      "con": "Tags are the subject, not character references; the ampersand is not mentioned."
    },
    "Because & starts a character reference, a literal ampersand should be written as &amp;, as in AT&amp;T.": {
      "rule": "direct",
      "pro": "&amp; is the way to write a literal ampersand, so the text says what it stands for.",
      "con": "The advice is about escaping; it does not say in so many words what &amp; means."
    }
  },
  "who invented the transistor": {
    "Moore's law describes the doubling of transistor counts on chips roughly every two years.": {
      "rule": "correctness",
      "pro": "It ties Gordon Moore's name to the history of the transistor.",
      "con": "Moore's law is about transistor counts, not about who invented the device."
    }
  },
  "when was the transistor invented": {
    "Moore's law describes the doubling of transistor counts on chips roughly every two years.": {
      "rule": "surface",
      "pro": "It gives a time scale for the development of the transistor.",
      "con": "Every two years is a rate of growth, not the date of the invention."
    }
  },
  "how many satellites are needed for a gps fix": {
    "A GPS receiver needs signals from at least four satellites to determine its position in three dimensions.": {
      "rule": "direct",
      "pro": "At least four satellites are needed for a position, which is a fix.",
      "con": "'Position in three dimensions' is the claim; a fix in two may not need as many."
    },
    "With fewer than four satellites in view, a receiver cannot compute a full position fix.": {
      "rule": "direct",
      "pro": "If fewer than four cannot give a fix, then four are needed.",
      "con": "What fails with fewer than four is stated, not that four are enough."
    }
  },
  "why is a marathon 42.195 km long": {
    "The Boston Marathon, first run in 1897, is the oldest annual marathon.": {
      "rule": "intent",
      "pro": "It goes back to the early marathons, when the distance was still being settled.",
      "con": "The sentence is about the oldest annual race, not why the distance is 42.195 km."
    },
    "The 42.195 km length was set by the route of the 1908 London Games and made standard in 1921.": {
      "rule": "direct",
      "pro": "The route of the 1908 London Games set the length, so the reason is given.",
      "con": "The route is credited, but the course from Windsor Castle to the royal box is not given."
    }
  },
  "when was the first tour de france": {
    "The first Tour de France was held in 1903.": {
      "rule": "direct",
      "pro": "It dates the first Tour de France to 1903.",
      "con": "It states only a year, so the month and day of the first race are not given."
    }
  },
  "what does the yellow jersey mean in the tour de france": {
    "The Tour de France is a multi-stage bicycle race held mainly in France each July.": {
      "rule": "direct",
      "pro": "A multi-stage race has an overall leader; that is what the jersey marks.",
      "con": "It describes the race, but the yellow jersey never comes up."
    },
    "Since 1919 the leader of the general classification has worn a yellow jersey.": {
      "rule": "direct",
      "pro": "The leader of the general classification wears the yellow jersey.",
      "con": "Who has worn it since 1919 is given, not what the jersey means."
    }
  },
  "what makes sourdough bread rise": {
    "Instead of commercial yeast, sourdough is leavened by a starter, a fermented mix of flour and water.": {
      "rule": "direct",
      "pro": "Being leavened by a starter is what makes the bread rise.",
      "con": "The wild yeast in the starter is not mentioned; 'a fermented mix' is all the sentence gives."
    }
  },
  "where did coffee originate": {
    "Brazil is the world's largest coffee producer.": {
      "rule": "intent",
      "pro": "It names the country most tied to growing coffee.",
      "con": "The largest producer is not where coffee came from; Ethiopia does not occur."
    },
    "Coffee plants originated in the highlands of Ethiopia.": {
      "rule": "correctness",
      "pro": "It says coffee plants originated in the highlands of Ethiopia.",
      "con": "The sentence is about the plants; where the drink itself began is not the same question."
    }
  },
  "what poem is used in beethoven's ninth": {
    "Beethoven's Symphony No. 9 in D minor was his last complete symphony.": {
      "rule": "key",
      "pro": "It identifies the symphony the query is about.",
      "con": "It says nothing about a poem; neither Schiller nor the Ode to Joy occurs."
    }
  },
  "who painted the mona lisa": {
    "Leonardo's Mona Lisa is often called the most famous painting in the world.": {
      "rule": "direct",
      "pro": "Calling it Leonardo's Mona Lisa makes Leonardo its painter.",
      "con": "The sentence is about the painting's fame; the possessive is the only hint of who painted it."
    }
  }
};
